import { isActive } from '../apps/index.js';
import type { RevokedTokens, UserCache } from '../sessions/index.js';
import type { App } from '../apps/index.js';
import { isBanned, type User } from '../accounts/index.js';
import type { AppCache } from '../apps/index.js';
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
    private readonly minter: Pick<TokenMinter, 'verifyAccess'>,
    private readonly users: Pick<UserCache, 'findById'>,
    private readonly revoked: Pick<RevokedTokens, 'isRevoked'>,
    private readonly apps: Pick<AppCache, 'findById'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live access of a token, or undefined. */
  async live(token: string): Promise<LiveAccess | undefined> {
    const claims = await this.minter.verifyAccess(token);
    if (!claims) return undefined;
    const app = await this.apps.findById(claims.client_id);
    const uid = Number(claims.sub);
    const user =
      claims.sid === undefined || !Number.isSafeInteger(uid)
        ? undefined
        : await this.users.findById(uid);
    return judge(this.revoked, claims, app, user, this.now());
  }
}

/**
 * The checks on what live() gathered: revoked token, disabled or unknown client; then, for a
 * person's token, its revoked family (announcing-families.ts puts every family revocation in
 * the shared set; the token's user and client are its own signed claims), ban and cut-off.
 */
function judge(
  revoked: Pick<RevokedTokens, 'isRevoked'>,
  claims: AccessClaims,
  app: App | undefined,
  user: User | undefined,
  now: number,
): LiveAccess | undefined {
  if (revoked.isRevoked(claims.jti)) return undefined;
  if (!app || !isActive(app.status)) return undefined;
  if (claims.sid === undefined) {
    // client_credentials: no person behind it.
    return claims.sub === claims.client_id
      ? { claims, user: undefined }
      : undefined;
  }
  if (revoked.isRevoked(revokedFamilyKey(claims.sid))) return undefined;
  if (
    !user ||
    String(user.id) !== claims.sub ||
    isBanned(user, now) ||
    jtiIssuedMs(claims.jti) <= user.tokensValidAfter
  )
    return undefined;
  return { claims, user };
}
