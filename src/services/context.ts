import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Storage } from '../storage/types.js';
import type { AuditLog } from './audit.js';
import type { ClientDirectory } from './clients.js';
import type { Mailer } from './mail.js';
import type { Passwords } from './passwords.js';
import type { RateLimitStore } from './rate-limit.js';
import type { SessionCache } from './session-state.js';
import type { SignIns } from './sign-ins.js';
import type { TokenService } from './tokens.js';

/** The repositories of one backend, without its lifecycle (migrate, ping, close). */
export type Repositories = Omit<Storage, 'kind' | 'migrate' | 'ping' | 'close'>;

/**
 * Every collaborator the use cases are built from, assembled once in services/index.ts.
 * No service receives all of it: each declares, with `Uses`, the part it needs.
 */
export interface ServiceKit {
  readonly config: Config;
  /** Repositories whose user and app writes announce themselves on the bus. */
  readonly storage: Repositories;
  readonly now: () => number;
  readonly log: Logger;
  readonly sessionCache: SessionCache;
  readonly tokens: TokenService;
  readonly passwords: Passwords;
  readonly mailer: Mailer;
  readonly audit: AuditLog;
  /** Shared hit counters (memory, cluster primary or Redis) behind the rate limits. */
  readonly rateCounters: RateLimitStore;
  readonly clients: ClientDirectory;
  /** The record of each sign-in (token family): list, end one, end all. */
  readonly signIns: SignIns;
}

/** The collaborators `K` and the repositories `R` of the kit: what one service is given. */
export type Uses<K extends Exclude<keyof ServiceKit, 'storage'>, R extends keyof Repositories = never> =
  Pick<ServiceKit, K> & { readonly storage: Pick<Repositories, R> };

/** Who is calling, for audit rows and per-IP limits. */
export interface Caller {
  ip: string;
  userAgent?: string;
}
