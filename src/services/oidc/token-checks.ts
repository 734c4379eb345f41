import { isActive } from '../../domain/app-state.js';
import type { SessionCache } from '../session-state.js';
import type { AppRepo, User } from '../../storage/types.js';
import { revokedFamilyKey } from './announcing-families.js';
import { jtiIssuedMs, type AccessClaims, type TokenMinter } from './token-minter.js';

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
    private readonly apps: Pick<AppRepo, 'findById'>,
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
    // The family's revocation, wherever it happened, is in the shared revoked set
    // (announcing-families.ts); its user and client are the token's own signed claims.
    if (this.state.isRevoked(revokedFamilyKey(claims.sid))) return undefined;
    const uid = Number(claims.sub);
    if (!Number.isSafeInteger(uid)) return undefined;
    const user = await this.state.user(uid);
    if (!user || user.banned || jtiIssuedMs(claims.jti) <= user.tokensValidAfter) return undefined;
    return { claims, user };
  }
}
