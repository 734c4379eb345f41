import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Storage } from '../storage/types.js';
import type { AuditLog } from './audit.js';
import type { ChangeBus } from './change-bus.js';
import type { Mailer } from './mail.js';
import type { Passwords } from './passwords.js';
import type { RateLimitStore } from './rate-limit.js';
import type { SessionState } from './session-state.js';
import type { TokenService } from './tokens.js';

/** What every use-case service is built from; assembled once in services/index.ts. */
export interface ServiceContext {
  readonly config: Config;
  readonly storage: Storage;
  readonly log: Logger;
  readonly now: () => number;
  readonly bus: ChangeBus;
  readonly state: SessionState;
  readonly tokens: TokenService;
  readonly passwords: Passwords;
  readonly mailer: Mailer;
  readonly audit: AuditLog;
  readonly limits: RateLimitStore;
}

/** Who is calling, for audit rows and per-IP limits. */
export interface Caller {
  ip: string;
  userAgent?: string;
}
