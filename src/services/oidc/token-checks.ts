import { isActive } from '../../domain/app-state.js';
import type { SessionCache } from '../session-state.js';
import type { AppRepo, RefreshTokenRepo, User } from '../../storage/types.js';
import { jtiIssuedMs, type AccessClaims, type TokenMinter } from './token-minter.js';

export interface LiveAccess {
  claims: AccessClaims;
  /** The person, or undefined for a client_credentials token (`sub` = client id). */
  user: User | undefined;
}

/**
 * Whether one of our access tokens is usable right now (UserInfo, introspection): signature,
 * issuer and expiry, then the shared revocation set, its refresh family, the person (ban,
 * logout-all / password-reset cut-off) and the client's status, each read fresh enough that
 * a change anywhere acts at once here or within the seed's own cache bound.
 */
export class AccessTokenCheck {
  constructor(
    private readonly minter: TokenMinter,
    private readonly state: SessionCache,
    private readonly apps: AppRepo,
    private readonly refreshTokens: RefreshTokenRepo,
  ) {}

  async live(token: string): Promise<LiveAccess | undefined> {
    const claims = await this.minter.verifyAccess(token);
    if (!claims || this.state.isRevoked(claims.jti)) return undefined;
    const app = await this.apps.findById(claims.client_id);
    if (!app || !isActive(app.status)) return undefined;
    if (claims.sid === undefined) {
      // client_credentials: no person behind it.
      return claims.sub === claims.client_id ? { claims, user: undefined } : undefined;
    }
    const family = await this.refreshTokens.findFamily(claims.sid);
    if (!family || family.revokedAt !== null || family.clientId !== claims.client_id) return undefined;
    const uid = Number(claims.sub);
    if (!Number.isSafeInteger(uid) || uid !== family.userId) return undefined;
    const user = await this.state.user(uid);
    if (!user || user.banned || jtiIssuedMs(claims.jti) <= user.tokensValidAfter) return undefined;
    return { claims, user };
  }
}
