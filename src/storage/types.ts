/**
 * Repository interfaces: what the services need from storage, nothing about SQL.
 * Every backend (SQLite, PostgreSQL) implements these and passes test/storage.
 * Times are unix milliseconds unless a name says otherwise.
 */

export interface User {
  id: number;
  username: string;
  email: string;
  displayName: string;
  passwordHash: string;
  emailVerified: boolean;
  roles: string[];
  banned: boolean;
  /** Tokens issued before this instant (ms) are invalid: logout-all and password reset. */
  tokensValidAfter: number;
  createdAt: number;
  updatedAt: number;
}

export interface NewUser {
  username: string;
  email: string;
  displayName: string;
  passwordHash: string;
  emailVerified: boolean;
  roles: string[];
}

export interface UserRepo {
  /** Throws `UniqueViolation` naming 'username' or 'email' when taken (ignoring case). */
  create(user: NewUser, now: number): Promise<User>;
  findById(id: number): Promise<User | undefined>;
  findByUsername(username: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** Username or e-mail, ignoring case (the login form takes either). */
  findByLogin(login: string): Promise<User | undefined>;
  update(id: number, patch: Partial<Pick<User, 'displayName' | 'passwordHash' | 'emailVerified' | 'roles' | 'banned' | 'tokensValidAfter'>>, now: number): Promise<void>;
  search(query: string, offset: number, limit: number): Promise<{ users: User[]; total: number }>;
  /** Ids of users changed at or after `since`, for cross-instance cache invalidation. */
  changedSince(since: number): Promise<number[]>;
  count(): Promise<number>;
}

export interface RevocationRepo {
  /** Idempotent. `exp` is the token's expiry (unix seconds) so old rows can be purged. */
  revoke(jti: string, userId: number, exp: number, now: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  /** Revocations recorded at or after `since` whose tokens have not expired yet. */
  revokedSince(since: number, nowSeconds: number): Promise<string[]>;
  purgeExpired(nowSeconds: number): Promise<number>;
}

export type ClientType = 'confidential' | 'public';
export type AppStatus = 'active' | 'disabled';

export interface App {
  clientId: string;
  ownerId: number;
  displayName: string;
  homepage: string;
  scopes: string[];
  redirectUris: string[];
  corsOrigins: string[];
  clientType: ClientType;
  /** SHA-256 (hex) of the secret; null for public clients. */
  secretHash: string | null;
  /** Stored as text: anything other than 'active' is treated as disabled. */
  status: string;
  createdAt: number;
  updatedAt: number;
}

export type NewApp = Omit<App, 'createdAt' | 'updatedAt'>;

export interface AppRepo {
  /** Throws `UniqueViolation('client_id')` when taken. */
  create(app: NewApp, now: number): Promise<App>;
  findById(clientId: string): Promise<App | undefined>;
  listByOwner(ownerId: number): Promise<App[]>;
  listActive(): Promise<App[]>;
  update(clientId: string, patch: Partial<Pick<App, 'displayName' | 'homepage' | 'scopes' | 'redirectUris' | 'corsOrigins' | 'secretHash' | 'status'>>, now: number): Promise<App | undefined>;
  changedSince(since: number): Promise<string[]>;
}

export interface AuthCode {
  codeHash: string;
  clientId: string;
  userId: number;
  redirectUri: string;
  scope: string;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
  expiresAt: number;
  usedAt: number | null;
  /** jti of the token issued from this code (set by the consuming UPDATE), so a replay can revoke it. */
  tokenJti: string | null;
  tokenExp: number | null;
  /** When a replay of the used code arrived (kept for the audit trail). */
  replayedAt: number | null;
  createdAt: number;
}

export interface AuthCodeRepo {
  create(code: Omit<AuthCode, 'usedAt' | 'tokenJti' | 'tokenExp' | 'replayedAt'>): Promise<void>;
  findByHash(codeHash: string): Promise<AuthCode | undefined>;
  /**
   * Atomically marks the code used and records the token issued from it, if, and only if,
   * the code is unused and unexpired (one conditional UPDATE). Exactly one concurrent
   * caller gets true; a later replay finds the token's jti already on the row to revoke.
   */
  consume(codeHash: string, now: number, token: { jti: string; exp: number }): Promise<boolean>;
  markReplayed(codeHash: string, now: number): Promise<AuthCode | undefined>;
  purgeExpired(before: number): Promise<number>;
}

export type DeviceStatus = 'pending' | 'approved' | 'denied' | 'used';

export interface DeviceCode {
  deviceCodeHash: string;
  userCode: string;
  clientId: string;
  status: DeviceStatus;
  userId: number | null;
  interval: number;
  lastPollAt: number | null;
  expiresAt: number;
  createdAt: number;
}

export interface DeviceCodeRepo {
  /** Throws `UniqueViolation('user_code')` when a row with that user code exists. */
  create(code: Omit<DeviceCode, 'status' | 'userId' | 'lastPollAt'>): Promise<void>;
  /** Deletes rows holding `userCode` that are no longer live, so the code can be reused. */
  releaseUserCode(userCode: string, now: number): Promise<void>;
  findByHash(deviceCodeHash: string): Promise<DeviceCode | undefined>;
  findLiveByUserCode(userCode: string, now: number): Promise<DeviceCode | undefined>;
  /** Conditional transition: only from `from`; returns whether this caller made it. */
  transition(deviceCodeHash: string, from: DeviceStatus, to: DeviceStatus, userId?: number): Promise<boolean>;
  recordPoll(deviceCodeHash: string, now: number, interval: number): Promise<void>;
  purgeExpired(before: number): Promise<number>;
}

export type EmailPurpose = 'register' | 'login' | 'verify' | 'reset_password';

export interface EmailCode {
  id: number;
  email: string;
  purpose: EmailPurpose;
  codeHash: string;
  attempts: number;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface EmailCodeRepo {
  create(code: Omit<EmailCode, 'id' | 'attempts' | 'usedAt'>): Promise<void>;
  /** The newest unused, unexpired code for this e-mail (lower-cased) and purpose. */
  findLatest(email: string, purpose: EmailPurpose, now: number): Promise<EmailCode | undefined>;
  /** Time of the newest code sent to this e-mail, any purpose (resend throttle). */
  lastSentAt(email: string): Promise<number | undefined>;
  /** Counts a wrong try; returns the attempts now recorded. */
  addAttempt(id: number): Promise<number>;
  /** Conditional: marks used only if unused; true for the one caller that did. */
  markUsed(id: number, now: number): Promise<boolean>;
  purgeExpired(before: number): Promise<number>;
}

export interface AuditEntry {
  id: number;
  at: number;
  actor: string | null;
  ip: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
}

export interface AuditRepo {
  append(entry: Omit<AuditEntry, 'id'>): Promise<void>;
  list(filter: { action?: string; actor?: string; target?: string }, offset: number, limit: number): Promise<{ entries: AuditEntry[]; total: number }>;
}

/** All repositories of one backend; `close` releases its connections. */
export interface Storage {
  readonly kind: 'sqlite' | 'postgres';
  readonly users: UserRepo;
  readonly revocations: RevocationRepo;
  readonly apps: AppRepo;
  readonly codes: AuthCodeRepo;
  readonly devices: DeviceCodeRepo;
  readonly emailCodes: EmailCodeRepo;
  readonly audit: AuditRepo;
  /** Runs the migrations not yet applied; safe to call from several processes. */
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** A unique constraint was hit; `field` names the public field (username, email, client_id, user_code). */
export class UniqueViolation extends Error {
  constructor(readonly field: string) {
    super(`unique violation: ${field}`);
    this.name = 'UniqueViolation';
  }
}
