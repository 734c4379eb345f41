import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Repositories } from './storage.js';
import type { AuditLog } from '../features/audit/audit-log.js';
import type { ClientDirectory } from '../features/apps/client-directory.js';
import type { Mailer } from '../platform/mail/mailer.js';
import type { Passwords } from '../platform/crypto/passwords.js';
import type { RevokedTokens } from '../features/sessions/revoked-tokens.js';
import type { SignIns } from '../features/sessions/sign-ins.js';
import type { TokenService } from '../features/sessions/token-service.js';
import type { UserCache } from '../features/sessions/user-cache.js';

/** The repositories of one backend, without its lifecycle (migrate, ping, close). */
export type { Repositories };

/**
 * Every collaborator the use cases are built from, assembled once in app/services.ts.
 * No service receives all of it: each declares, in its own feature, the part it needs.
 */
export interface ServiceKit {
  readonly config: Config;
  /** Repositories whose user and app writes announce themselves on the bus. */
  readonly storage: Repositories;
  readonly now: () => number;
  readonly log: Logger;
  /** Users as the token checks read them, kept per instance and dropped on every change. */
  readonly userCache: UserCache;
  /** Ids of tokens, sessions and refresh families revoked before they expire. */
  readonly revokedTokens: RevokedTokens;
  readonly tokens: TokenService;
  readonly passwords: Passwords;
  readonly mailer: Mailer;
  readonly audit: AuditLog;
  readonly clients: ClientDirectory;
  /** The record of each sign-in (token family): list, end one, end all. */
  readonly signIns: SignIns;
}
