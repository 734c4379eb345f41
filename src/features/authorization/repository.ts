/** Repository interfaces of authorization codes: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */

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
  /** `v1` codes are exchanged at /api/v1/auth/exchange only, `oidc` codes at /oauth/token only. */
  flow: CodeFlow;
  /** OIDC: the authorization request's nonce, echoed in the ID token. */
  nonce: string | null;
  /** OIDC: when the person signed in (ms), for the ID token's auth_time. */
  authTime: number | null;
  /** OIDC: whether redirect_uri was sent at authorize (then the token request must repeat it). */
  redirectUriGiven: boolean;
  /** OIDC: the refresh family created by the exchange (set by the consuming UPDATE), so a replay can revoke it. */
  refreshFamily: string | null;
  /** OIDC: how the person signed in, as the ID token's `amr` values separated by spaces (`fed`); null: not said. */
  amr: string | null;
  /** OIDC: the center sign-in (its `sid`) that authorized it; its end logs the client out (Back-Channel Logout). */
  sessionId: string | null;
}

export type CodeFlow = 'v1' | 'oidc';

export type NewAuthCode = Omit<
  AuthCode,
  | 'usedAt'
  | 'tokenJti'
  | 'tokenExp'
  | 'replayedAt'
  | 'flow'
  | 'nonce'
  | 'authTime'
  | 'redirectUriGiven'
  | 'refreshFamily'
  | 'amr'
  | 'sessionId'
> &
  Partial<
    Pick<
      AuthCode,
      'flow' | 'nonce' | 'authTime' | 'redirectUriGiven' | 'amr' | 'sessionId'
    >
  >;

export interface AuthCodeRepo {
  /** `flow` defaults to `v1`, `redirectUriGiven` to true. */
  create(code: NewAuthCode): Promise<void>;
  findByHash(codeHash: string): Promise<AuthCode | undefined>;
  /**
   * Atomically marks a `v1` code used and records the token issued from it, if, and only if,
   * the code is unused and unexpired (one conditional UPDATE). Exactly one concurrent
   * caller gets true; a later replay finds the token's jti already on the row to revoke.
   */
  consume(
    codeHash: string,
    now: number,
    token: { jti: string; exp: number },
  ): Promise<boolean>;
  /** The same for an `oidc` code; also records the refresh family the exchange created (or null). */
  consumeOidc(
    codeHash: string,
    now: number,
    issued: { jti: string; exp: number; refreshFamily: string | null },
  ): Promise<boolean>;
  markReplayed(codeHash: string, now: number): Promise<AuthCode | undefined>;
  purgeExpired(before: number): Promise<number>;
}
