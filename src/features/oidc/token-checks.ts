import { isActive } from '../apps/index.js';
import type { SessionCache } from '../sessions/index.js';
import type { App } from '../apps/index.js';
import type { User } from '../accounts/index.js';
import type { AppCache } from '../apps/index.js';
import { NOT_CACHED } from '../../platform/cache/reloading-cache.js';
import { revokedFamilyKey } from './announcing-families.js';
import { jtiIssuedMs } from '../../platform/jwt/token-ids.js';
import type { AccessClaims, TokenMinter } from './token-minter.js';

export interface LiveAccess {
  claims: AccessClaims;
  /** The person, or undefined for a client_credentials token (`sub` = client id). */
  user: User | undefined;
}

/**
 * Whether one of our access tokens is usable right now (UserInfo, introspection): signature,
 * issuer and expiry, then the shared revocation set (the token and its refresh family), the
 * client's status and the person (ban, logout-all / password-reset cut-off), all from
 * per-instance state that a change here updates at once and one elsewhere within seconds.
 */
export class AccessTokenCheck {
  constructor(
    private readonly minter: TokenMinter,
    private readonly state: SessionCache,
    private readonly apps: Pick<AppCache, 'findById' | 'cached'>,
  ) {}

  /**
   * The live access of a token, or undefined. Without a promise when all it needs is in
   * memory, which is nearly always (the token verified before, its app and its person
   * cached), as the seed's `tokens.check()` does for `me`.
   */
  live(token: string): LiveAccess | undefined | Promise<LiveAccess | undefined> {
    const known = this.liveIfVerified(token);
    return known === NOT_CACHED ? this.liveStored(token) : known;
  }

  /**
   * live() for a token whose signature was checked before; NOT_CACHED for any other string,
   * which the caller checks for syntax before it calls live().
   */
  liveIfVerified(token: string): LiveAccess | undefined | Promise<LiveAccess | undefined> | typeof NOT_CACHED {
    const claims = this.minter.verifiedBefore(token);
    if (claims === undefined || claims === NOT_CACHED) return claims;
    const app = this.apps.cached(claims.client_id);
    const user = claims.sid === undefined ? undefined : this.state.cachedUser(Number(claims.sub));
    if (app !== NOT_CACHED && user !== NOT_CACHED) return judge(this.state, claims, app, user);
    return this.liveStored(token);
  }

  private async liveStored(token: string): Promise<LiveAccess | undefined> {
    const claims = await this.minter.verifyAccess(token);
    if (!claims) return undefined;
    const app = await this.apps.findById(claims.client_id);
    const uid = Number(claims.sub);
    const user = claims.sid === undefined || !Number.isSafeInteger(uid) ? undefined : await this.state.user(uid);
    return judge(this.state, claims, app, user);
  }
}

/**
 * The checks on what live() gathered: revoked token, disabled or unknown client; then, for a
 * person's token, its revoked family (announcing-families.ts puts every family revocation in
 * the shared set; the token's user and client are its own signed claims), ban and cut-off.
 */
function judge(state: Pick<SessionCache, 'isRevoked'>, claims: AccessClaims, app: App | undefined, user: User | undefined): LiveAccess | undefined {
  if (state.isRevoked(claims.jti)) return undefined;
  if (!app || !isActive(app.status)) return undefined;
  if (claims.sid === undefined) {
    // client_credentials: no person behind it.
    return claims.sub === claims.client_id ? { claims, user: undefined } : undefined;
  }
  if (state.isRevoked(revokedFamilyKey(claims.sid))) return undefined;
  if (!user || String(user.id) !== claims.sub || user.banned || jtiIssuedMs(claims.jti) <= user.tokensValidAfter) return undefined;
  return { claims, user };
}
