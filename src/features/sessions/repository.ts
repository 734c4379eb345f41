/** Repository interfaces of sign-in sessions and revoked tokens: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */

export interface RevocationRepo {
  /** Idempotent. `exp` is the token's expiry (unix seconds) so old rows can be purged. */
  revoke(jti: string, userId: number, exp: number, now: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  /** Revocations recorded at or after `since` whose tokens have not expired yet. */
  revokedSince(since: number, nowSeconds: number): Promise<string[]>;
  purgeExpired(nowSeconds: number): Promise<number>;
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
  /** How the person signed in, for the ID token's `amr` and `acr` (sign-in-method.ts): '' for a password or code, `upstream:steam`, `passkey`, each maybe with `+otp`. */
  method: string;
}

export interface SessionRepo {
  create(
    session: Omit<SignInSession, 'endedAt' | 'method'> & { method?: string },
  ): Promise<void>;
  findById(id: string): Promise<SignInSession | undefined>;
  /** Sessions of the user neither ended nor expired at `now`, newest first. */
  listLive(
    userId: number,
    now: number,
    limit: number,
  ): Promise<SignInSession[]>;
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
