import type { AppStatus } from '../domain/app-state.js';
import type { ClientTypeName } from '../domain/clients.js';
import type { PasskeyRepo, ReauthGrantRepo, SecondFactorRepo } from './second-factor-types.js';

export type * from './second-factor-types.js';

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

/** A user moved in from another system (`users import`): its hash is kept as it was. */
export interface ImportedUser extends NewUser {
  banned: boolean;
  createdAt: number;
}

export interface UserRepo {
  /** Throws `UniqueViolation` naming 'username' or 'email' when taken (ignoring ASCII case). */
  create(user: NewUser, now: number): Promise<User>;
  findById(id: number): Promise<User | undefined>;
  findByUsername(username: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** Username or e-mail, ignoring ASCII case (the login form takes either). */
  findByLogin(login: string): Promise<User | undefined>;
  /** Throws `UniqueViolation` when a new username or e-mail is taken (ignoring ASCII case). */
  update(id: number, patch: Partial<Pick<User, 'username' | 'email' | 'displayName' | 'passwordHash' | 'emailVerified' | 'roles' | 'banned' | 'tokensValidAfter'>>, now: number): Promise<void>;
  search(query: string, offset: number, limit: number): Promise<{ users: User[]; total: number }>;
  /** Ids of users changed at or after `since`, for cross-instance cache invalidation. */
  changedSince(since: number): Promise<number[]>;
  count(): Promise<number>;
  /** Accounts created per UTC day (`YYYY-MM-DD`) since `since`, for the dashboard. */
  createdPerDay(since: number): Promise<Array<{ day: string; count: number }>>;
  /** Up to `limit` users with ids above `afterId`, in id order (export, page by page). */
  listAfter(afterId: number, limit: number): Promise<User[]>;
  /**
   * Which of these user-name and e-mail keys (lower-cased) are taken: each taken user name
   * with the e-mail key of its account, and the taken e-mail keys.
   */
  takenKeys(usernameKeys: string[], emailKeys: string[]): Promise<{ usernames: Map<string, string>; emails: Set<string> }>;
  /** Inserts every user or none (one transaction); throws `UniqueViolation` when one is taken. */
  insertMany(users: ImportedUser[], now: number): Promise<void>;
}

export interface RevocationRepo {
  /** Idempotent. `exp` is the token's expiry (unix seconds) so old rows can be purged. */
  revoke(jti: string, userId: number, exp: number, now: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  /** Revocations recorded at or after `since` whose tokens have not expired yet. */
  revokedSince(since: number, nowSeconds: number): Promise<string[]>;
  purgeExpired(nowSeconds: number): Promise<number>;
}

export type ClientType = ClientTypeName;
export type { AppStatus };

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
  /** RFC 7591 client fields (docs/api.md §12.2). */
  grantTypes: string[];
  tokenEndpointAuthMethod: string;
  postLogoutRedirectUris: string[];
  /** Why an administrator disabled (or re-enabled) it, shown to the owner; '' when never set. */
  statusReason: string;
  statusChangedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The RFC 7591 fields are optional on create: grants default to code + refresh, the method to the client type's. */
export type NewApp = Omit<App, 'createdAt' | 'updatedAt' | 'statusReason' | 'statusChangedAt' | 'grantTypes' | 'tokenEndpointAuthMethod' | 'postLogoutRedirectUris'>
  & Partial<Pick<App, 'grantTypes' | 'tokenEndpointAuthMethod' | 'postLogoutRedirectUris'>>;

export interface AppRepo {
  /** Throws `UniqueViolation('client_id')` when taken. */
  create(app: NewApp, now: number): Promise<App>;
  findById(clientId: string): Promise<App | undefined>;
  listByOwner(ownerId: number): Promise<App[]>;
  listActive(): Promise<App[]>;
  update(clientId: string, patch: Partial<Pick<App, 'displayName' | 'homepage' | 'scopes' | 'redirectUris' | 'corsOrigins' | 'secretHash' | 'status' | 'statusReason' | 'statusChangedAt' | 'grantTypes' | 'tokenEndpointAuthMethod' | 'postLogoutRedirectUris'>>, now: number): Promise<App | undefined>;
  changedSince(since: number): Promise<string[]>;
  /** Every app whose name, client_id or owner's username contains `query` (ASCII case ignored), newest first. */
  search(query: string, offset: number, limit: number): Promise<{ apps: App[]; total: number }>;
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
  /** `seed` codes are exchanged at /api/v1/auth/exchange only, `oidc` codes at /oauth/token only. */
  flow: CodeFlow;
  /** OIDC: the authorization request's nonce, echoed in the ID token. */
  nonce: string | null;
  /** OIDC: when the person signed in (ms), for the ID token's auth_time. */
  authTime: number | null;
  /** OIDC: whether redirect_uri was sent at authorize (then the token request must repeat it). */
  redirectUriGiven: boolean;
  /** OIDC: the refresh family created by the exchange (set by the consuming UPDATE), so a replay can revoke it. */
  refreshFamily: string | null;
}

export type CodeFlow = 'seed' | 'oidc';

export type NewAuthCode = Omit<AuthCode, 'usedAt' | 'tokenJti' | 'tokenExp' | 'replayedAt' | 'flow' | 'nonce' | 'authTime' | 'redirectUriGiven' | 'refreshFamily'>
  & Partial<Pick<AuthCode, 'flow' | 'nonce' | 'authTime' | 'redirectUriGiven'>>;

export interface AuthCodeRepo {
  /** `flow` defaults to `seed`, `redirectUriGiven` to true. */
  create(code: NewAuthCode): Promise<void>;
  findByHash(codeHash: string): Promise<AuthCode | undefined>;
  /**
   * Atomically marks a `seed` code used and records the token issued from it, if, and only if,
   * the code is unused and unexpired (one conditional UPDATE). Exactly one concurrent
   * caller gets true; a later replay finds the token's jti already on the row to revoke.
   */
  consume(codeHash: string, now: number, token: { jti: string; exp: number }): Promise<boolean>;
  /** The same for an `oidc` code; also records the refresh family the exchange created (or null). */
  consumeOidc(codeHash: string, now: number, issued: { jti: string; exp: number; refreshFamily: string | null }): Promise<boolean>;
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
  /** The scope asked at /oauth/device_authorization; null for the seed's device flow. */
  scope: string | null;
}

export interface DeviceCodeRepo {
  /** Throws `UniqueViolation('user_code')` when a row with that user code exists. */
  create(code: Omit<DeviceCode, 'status' | 'userId' | 'lastPollAt' | 'scope'> & { scope?: string | null }): Promise<void>;
  /** Deletes rows holding `userCode` that are no longer live, so the code can be reused. */
  releaseUserCode(userCode: string, now: number): Promise<void>;
  findByHash(deviceCodeHash: string): Promise<DeviceCode | undefined>;
  findLiveByUserCode(userCode: string, now: number): Promise<DeviceCode | undefined>;
  /** Conditional transition: only from `from`; returns whether this caller made it. */
  transition(deviceCodeHash: string, from: DeviceStatus, to: DeviceStatus, userId?: number): Promise<boolean>;
  recordPoll(deviceCodeHash: string, now: number, interval: number): Promise<void>;
  purgeExpired(before: number): Promise<number>;
}

/** `change_email` codes go to the new address and are accepted only by the change-e-mail endpoint. */
export type EmailPurpose = 'register' | 'login' | 'verify' | 'reset_password' | 'change_email';

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
  /** The newest unused, unexpired code for this e-mail (ASCII case ignored) and purpose. */
  findLatest(email: string, purpose: EmailPurpose, now: number): Promise<EmailCode | undefined>;
  /** Time of the newest code sent to this e-mail, any purpose (resend throttle). */
  lastSentAt(email: string): Promise<number | undefined>;
  /**
   * Counts one try at the newest live code for (email, purpose), in one conditional UPDATE
   * that only succeeds while fewer than `maxTries` were counted: N parallel tries never get
   * more than `maxTries` hashes to compare. Undefined: no live code, or out of tries.
   */
  takeTry(email: string, purpose: EmailPurpose, now: number, maxTries: number): Promise<{ id: number; codeHash: string } | undefined>;
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
  /** Newest first; `from`/`to` (ms) bound `at` inclusively. */
  list(filter: AuditListFilter, offset: number, limit: number): Promise<{ entries: AuditEntry[]; total: number }>;
  /** Entries of `action` per UTC day (`YYYY-MM-DD`) since `since`, for the dashboard. */
  countPerDay(action: string, since: number): Promise<Array<{ day: string; count: number }>>;
}

export interface AuditListFilter {
  action?: string;
  actor?: string;
  target?: string;
  from?: number;
  to?: number;
}

/** One sign-in: the first token and every refresh of it share its id (the `sid` claim). */
export interface SignInSession {
  id: string;
  userId: number;
  app: string;
  createdAt: number;
  /** Updated at most once a minute per instance, not per request. */
  lastUsedAt: number;
  /** Expiry (ms) of the newest token of the family. */
  expiresAt: number;
  endedAt: number | null;
  ip: string;
  userAgent: string;
}

export interface SessionRepo {
  create(session: Omit<SignInSession, 'endedAt'>): Promise<void>;
  findById(id: string): Promise<SignInSession | undefined>;
  /** Sessions of the user neither ended nor expired at `now`, newest first. */
  listLive(userId: number, now: number, limit: number): Promise<SignInSession[]>;
  /** Sets `last used` of these sessions to `now` (never backwards), in one statement. */
  touchMany(ids: string[], now: number): Promise<void>;
  /** A refresh: the family lives until its newest token expires. */
  extend(id: string, expiresAt: number): Promise<void>;
  /** Conditional: ends it only if still open; true for the one caller that did. */
  end(id: string, now: number): Promise<boolean>;
  /** Ends every open session of the user except `keep`; returns the ids it ended. */
  endAllOf(userId: number, now: number, keep?: string): Promise<string[]>;
  /** Sign-ins per UTC day (`YYYY-MM-DD`) since `since`, for the dashboard. */
  startedPerDay(since: number): Promise<Array<{ day: string; count: number }>>;
  purgeExpired(before: number): Promise<number>;
  /** Deletes every session row of the user (addresses and user agents of a deleted account). */
  deleteAllOf(userId: number): Promise<void>;
}

export interface SigningKey {
  kid: string;
  /** 1 for the first key, +1 per rotation; the highest is the current key. */
  generation: number;
  alg: string;
  /** Public JWK as JSON text. */
  publicJwk: string;
  /** Private JWK, AES-256-GCM encrypted (see services), never stored in clear. */
  privateJwkEnc: string;
  createdAt: number;
  /** When a newer key replaced this one; null for the current key. */
  retiredAt: number | null;
}

export interface SigningKeyRepo {
  /**
   * Inserts the key if its generation is free and marks the older keys retired; false when
   * another instance already created that generation (then re-read).
   */
  insert(key: Omit<SigningKey, 'retiredAt'>): Promise<boolean>;
  /** Newest first. */
  list(limit: number): Promise<SigningKey[]>;
  current(): Promise<SigningKey | undefined>;
}

export interface RefreshFamily {
  familyId: string;
  userId: number;
  clientId: string;
  createdAt: number;
  revokedAt: number | null;
}

/** A family still usable: not revoked, with a refresh token not expired. */
export interface LiveRefreshFamily {
  familyId: string;
  clientId: string;
  createdAt: number;
  /** Creation (ms) of its newest refresh token: when the client last refreshed, or started. */
  lastUsedAt: number;
}

export interface RefreshToken {
  tokenHash: string;
  familyId: string;
  clientId: string;
  userId: number;
  scope: string;
  /** When the person signed in (ms). */
  authTime: number;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
}

export interface RefreshTokenRepo {
  createFamily(family: Omit<RefreshFamily, 'revokedAt'>): Promise<void>;
  findFamily(familyId: string): Promise<RefreshFamily | undefined>;
  /** Idempotent; true when this call revoked it. */
  revokeFamily(familyId: string, now: number): Promise<boolean>;
  /** Revokes every live family of this user for this client (consent revoked); returns their ids. */
  revokeFamiliesOf(userId: number, clientId: string, now: number): Promise<string[]>;
  /**
   * The user's live families started after `createdAfter` (the user's cut-off: older ones are
   * refused anyway), newest first.
   */
  listLiveFamilies(userId: number, now: number, createdAfter: number, limit: number): Promise<LiveRefreshFamily[]>;
  /** Revokes every live family of the user (as listed above); returns their ids. */
  revokeLiveFamiliesOf(userId: number, now: number, createdAfter: number): Promise<string[]>;
  create(token: Omit<RefreshToken, 'usedAt' | 'revokedAt'>): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshToken | undefined>;
  /**
   * Rotation: marks the token used if, and only if, it is unused, unrevoked, unexpired and its
   * family is live (one conditional UPDATE); exactly one concurrent caller gets the row.
   */
  use(tokenHash: string, now: number): Promise<RefreshToken | undefined>;
  /** The newest token of a family (the one a rotation issued last). */
  latestInFamily(familyId: string): Promise<RefreshToken | undefined>;
  purgeExpired(before: number): Promise<number>;
}

export interface Consent {
  userId: number;
  clientId: string;
  /** The scopes the person granted this client. */
  scopes: string[];
  createdAt: number;
  updatedAt: number;
}

export interface ConsentRepo {
  /** Creates or replaces the granted scope set of this user and client (callers pass the union they want kept). */
  upsert(userId: number, clientId: string, scopes: string[], now: number): Promise<Consent>;
  find(userId: number, clientId: string): Promise<Consent | undefined>;
  /** Newest first. */
  listByUser(userId: number): Promise<Consent[]>;
  /** True when a consent was deleted. */
  delete(userId: number, clientId: string): Promise<boolean>;
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
  readonly signingKeys: SigningKeyRepo;
  readonly refreshTokens: RefreshTokenRepo;
  readonly consents: ConsentRepo;
  readonly secondFactors: SecondFactorRepo;
  readonly passkeys: PasskeyRepo;
  readonly sessions: SessionRepo;
  readonly reauthGrants: ReauthGrantRepo;
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
