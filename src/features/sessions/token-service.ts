import type { Config } from '../../config/index.js';
import type { PublicUser, TokenEnvelope } from './contract.js';
import { fail, unauthorized, type Reason } from '../../errors/index.js';
import { isBanned, type User } from '../accounts/index.js';
import type { AppStatusCache } from '../apps/index.js';
import { jtiIssuedMs, newJti } from '../../platform/jwt/token-ids.js';
import {
  hmacJwtKey,
  jwtSigner,
  verifyJwt,
  type HmacJwtKey,
} from '../../platform/jwt/jwt.js';
import type { RevokedTokens } from './revoked-tokens.js';
import type { UserCache } from './user-cache.js';
import { newSessionId, revokedSessionKey } from './sign-ins.js';
import { VerifiedTokens } from './verified-tokens.js';

export interface TokenClaims {
  sub: string;
  uid: number;
  roles: string[];
  app: string;
  iat: number;
  exp: number;
  jti: string;
  /** The sign-in (token family) this token belongs to; absent on tokens issued before sessions existed. */
  sid?: string;
}

/** The `user` object of token envelopes: exactly these five keys (docs/api.md §1). */
export function publicUser(u: User): PublicUser {
  return {
    uid: u.id,
    username: u.username,
    display_name: u.displayName,
    email: u.email,
    roles: u.roles,
  };
}

export type { TokenEnvelope };

export interface Authenticated {
  claims: TokenClaims;
  user: User;
}

/**
 * The last checks of a token of an existing user, on the stored state, in the order their
 * refusals win: minted at or before the user's cut-off, then a banned user, then a token of a
 * disabled application. Undefined: the token is accepted.
 */
function refusalOf(
  claims: TokenClaims,
  user: User,
  appActive: boolean,
  now: number,
): Reason | undefined {
  // The cut-off millisecond itself is included: tokens minted in it before the cut-off must die.
  if (jtiIssuedMs(claims.jti) <= user.tokensValidAfter) return 'tokenInvalid';
  if (isBanned(user, now)) return 'banned';
  if (!appActive) return 'appDisabled';
  return undefined;
}

const BEARER = /^bearer +([A-Za-z0-9\-_.]+)$/i;

export class TokenService {
  private readonly key: HmacJwtKey;
  private readonly sign: (claims: object) => Promise<string>;
  /**
   * Claims of Authorization headers whose signature was checked already: only the very same
   * header hits, and expiry is still checked on every use.
   */
  private readonly verified = new VerifiedTokens<TokenClaims>();

  constructor(
    private readonly config: Pick<
      Config,
      'jwtSecret' | 'tokenTtl' | 'gameAppId' | 'gameTokenTtl'
    >,
    private readonly users: Pick<UserCache, 'findById'>,
    private readonly revoked: Pick<RevokedTokens, 'isRevoked' | 'revoke'>,
    private readonly appStatus: Pick<AppStatusCache, 'active'>,
    private readonly now: () => number = Date.now,
    /** Told, without waiting, of every accepted token of a session (its `last used`). */
    private readonly sessionSeen: (sid: string) => void = () => undefined,
    /** Told of every sign-out with a token (see revoke): its session ends with it. */
    private readonly signedOut: (
      claims: TokenClaims,
    ) => Promise<void> = async () => undefined,
  ) {
    this.key = hmacJwtKey(config.jwtSecret);
    this.sign = jwtSigner(this.key);
  }

  /** Lifetime of tokens issued for `app`: the game application gets game tokens. */
  ttlFor(app: string): number {
    return app === this.config.gameAppId
      ? this.config.gameTokenTtl
      : this.config.tokenTtl;
  }

  /** A token of session `sid`; without one, the first token of a new session (the caller records it). */
  async issue(
    user: User,
    app: string,
    ttl = this.ttlFor(app),
    sid = newSessionId(),
  ): Promise<{ token: string; claims: TokenClaims }> {
    // A token issued in the very millisecond of a cut-off, after it, must still count as later.
    const ms = Math.max(this.now(), user.tokensValidAfter + 1);
    const iat = Math.floor(ms / 1000);
    const claims: TokenClaims = {
      sub: user.username,
      uid: user.id,
      roles: user.roles,
      app,
      iat,
      exp: iat + ttl,
      jti: newJti(ms),
      sid,
    };
    return { token: await this.sign(claims), claims };
  }

  async envelope(
    user: User,
    app: string,
    ttl = this.ttlFor(app),
    sid?: string,
  ): Promise<{ body: TokenEnvelope; claims: TokenClaims }> {
    const { token, claims } = await this.issue(user, app, ttl, sid);
    return {
      body: {
        ok: true,
        access_token: token,
        token_type: 'Bearer',
        expires_in: ttl,
        user: publicUser(user),
      },
      claims,
    };
  }

  /** The claims of a well-formed, correctly signed, unexpired token, or undefined. */
  async decode(
    authorization: string | undefined,
  ): Promise<TokenClaims | undefined> {
    if (authorization === undefined) return undefined;
    let c = this.verified.get(authorization);
    if (c === undefined) {
      c = await this.verifySignature(authorization);
      if (c === undefined) return undefined;
      this.verified.set(authorization, c);
    }
    return c.exp * 1000 <= this.now() ? undefined : c;
  }

  private async verifySignature(
    authorization: string,
  ): Promise<TokenClaims | undefined> {
    const m = BEARER.exec(authorization);
    if (!m) return undefined;
    try {
      // Only HS256 under the secret is accepted: `alg: none` and every other algorithm fail.
      const c = await verifyJwt(m[1]!, this.key, { nowMs: this.now() });
      if (
        typeof c.uid !== 'number' ||
        typeof c.jti !== 'string' ||
        typeof c.app !== 'string' ||
        typeof c.exp !== 'number'
      )
        return undefined;
      if (c.sid !== undefined && typeof c.sid !== 'string') return undefined;
      return c as unknown as TokenClaims;
    } catch {
      return undefined;
    }
  }

  /**
   * The claims of a Bearer header whose token is well formed, correctly signed, unexpired and
   * not revoked, its session not ended; undefined otherwise.
   */
  private async unrevokedClaims(
    authorization: string | undefined,
  ): Promise<TokenClaims | undefined> {
    const claims = await this.decode(authorization);
    if (!claims || this.revoked.isRevoked(claims.jti)) return undefined;
    // An ended session is one more id in the same revoked set: no extra I/O per request.
    if (
      claims.sid !== undefined &&
      this.revoked.isRevoked(revokedSessionKey(claims.sid))
    )
      return undefined;
    return claims;
  }

  /** Verifies a Bearer header against signature, expiry, revocation, cut-off, ban and app status. */
  async check(authorization: string | undefined): Promise<Authenticated> {
    const claims = await this.unrevokedClaims(authorization);
    if (claims === undefined) throw unauthorized();
    const [user, appActive] = await Promise.all([
      this.users.findById(claims.uid),
      this.appStatus.active(claims.app),
    ]);
    if (user === undefined) throw unauthorized();
    const refusal = refusalOf(claims, user, appActive, this.now());
    if (refusal !== undefined) throw fail(refusal);
    return this.accepted({ claims, user });
  }

  private accepted(auth: Authenticated): Authenticated {
    if (auth.claims.sid !== undefined) this.sessionSeen(auth.claims.sid);
    return auth;
  }

  /**
   * A sign-out with this token (logout, the pages' sign-out): the token is revoked and its
   * session ended, so the session is no longer listed as live and a refreshed sibling fails too.
   */
  async revoke(claims: TokenClaims): Promise<void> {
    await this.revoked.revoke(claims.jti, claims.uid, claims.exp);
    await this.signedOut(claims);
  }
}
