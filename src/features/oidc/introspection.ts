import type { IntrospectionResponse } from './contract.js';
import { timedSecretKey } from '../../platform/crypto/random.js';
import type {
  RevokedTokens,
  TokenService,
  UserCache,
} from '../sessions/index.js';
import type { App } from '../apps/index.js';
import { isBanned } from '../accounts/index.js';
import type { RefreshTokenRepo } from './repository.js';
import type { AccessTokenCheck, LiveAccess } from './token-checks.js';
import type { TokenMinter } from './token-minter.js';
import { scopeList } from './claims.js';

const INACTIVE: IntrospectionResponse = { active: false };
/** Opaque refresh tokens are base64url; JWTs have exactly two dots. */
function looksLikeJwt(t: string): boolean {
  const first = t.indexOf('.');
  const second = first < 0 ? -1 : t.indexOf('.', first + 1);
  return second > 0 && t.indexOf('.', second + 1) < 0;
}

function describeAccess(live: LiveAccess): IntrospectionResponse {
  const c = live.claims;
  return {
    active: true,
    scope: c.scope,
    client_id: c.client_id,
    ...(live.user && { username: live.user.username }),
    // The roles held now, not those the token was issued with (docs/oidc.md).
    ...(live.user &&
      scopeList(c.scope).includes('roles') && { roles: live.user.roles }),
    token_type: 'Bearer',
    exp: c.exp,
    iat: c.iat,
    sub: c.sub,
    aud: c.aud,
    iss: c.iss,
    jti: c.jti,
  };
}

/** Whether an access token was issued to this client: its `client_id`, or its `aud`. */
function issuedTo(claims: LiveAccess['claims'], clientId: string): boolean {
  return (
    claims.client_id === clientId ||
    (Array.isArray(claims.aud)
      ? claims.aud.includes(clientId)
      : claims.aud === clientId)
  );
}

/**
 * RFC 7662 introspection and RFC 7009 revocation over every token the center issues: our
 * RFC 9068 access tokens, refresh tokens, and the v1 API's HS256 tokens (checked exactly like `me`).
 */
export class TokenIntrospection {
  constructor(
    private readonly accessCheck: AccessTokenCheck,
    private readonly refreshTokens: RefreshTokenRepo,
    private readonly users: Pick<UserCache, 'findById'>,
    private readonly revoked: Pick<RevokedTokens, 'revoke'>,
    private readonly v1Tokens: Pick<TokenService, 'check'>,
    private readonly minter: TokenMinter,
    private readonly issuer: string,
    private readonly now: () => number,
  ) {}

  /**
   * RFC 7662 §4: only the client a token was issued to learns anything about it; any other
   * client is told `active: false`, as for a token that does not exist.
   */
  async introspect(
    token: string,
    askingClientId: string,
  ): Promise<IntrospectionResponse> {
    if (!looksLikeJwt(token))
      return (await this.refresh(token, askingClientId)) ?? INACTIVE;
    const live = await this.accessCheck.live(token);
    if (!live) return (await this.v1Token(token, askingClientId)) ?? INACTIVE;
    return issuedTo(live.claims, askingClientId)
      ? describeAccess(live)
      : INACTIVE;
  }

  private async v1Token(
    token: string,
    askingClientId: string,
  ): Promise<IntrospectionResponse | undefined> {
    try {
      const { claims, user } = await this.v1Tokens.check(`Bearer ${token}`);
      if (claims.app !== askingClientId) return undefined;
      return {
        active: true,
        client_id: claims.app,
        username: user.username,
        token_type: 'Bearer',
        exp: claims.exp,
        iat: claims.iat,
        sub: claims.sub,
        jti: claims.jti,
      };
    } catch {
      return undefined;
    }
  }

  private async refresh(
    token: string,
    askingClientId: string,
  ): Promise<IntrospectionResponse | undefined> {
    const row = await this.refreshTokens.findByHash(timedSecretKey(token));
    const now = this.now();
    if (
      !row ||
      row.clientId !== askingClientId ||
      row.usedAt !== null ||
      row.revokedAt !== null ||
      row.expiresAt <= now
    )
      return undefined;
    const family = await this.refreshTokens.findFamily(row.familyId);
    if (!family || family.revokedAt !== null) return undefined;
    const user = await this.users.findById(row.userId);
    if (
      !user ||
      isBanned(user, now) ||
      family.createdAt <= user.tokensValidAfter
    )
      return undefined;
    return {
      active: true,
      scope: row.scope,
      client_id: row.clientId,
      username: user.username,
      ...(scopeList(row.scope).includes('roles') && { roles: user.roles }),
      token_type: 'refresh_token',
      exp: Math.floor(row.expiresAt / 1000),
      iat: Math.floor(row.createdAt / 1000),
      sub: String(row.userId),
      aud: row.clientId,
      iss: this.issuer,
    };
  }

  /**
   * RFC 7009: a refresh token ends its whole family (and so the access tokens carrying it as
   * `sid`); an access token is added to the shared revocation set. Tokens of other clients and
   * unknown tokens are left alone, and the answer is the same 200 either way.
   */
  async revoke(app: App, token: string): Promise<void> {
    if (!looksLikeJwt(token)) {
      const row = await this.refreshTokens.findByHash(timedSecretKey(token));
      if (row && row.clientId === app.clientId)
        await this.refreshTokens.revokeFamily(row.familyId, this.now());
      return;
    }
    const claims = await this.minter.verifyAccess(token);
    if (!claims || claims.client_id !== app.clientId) return;
    const uid = Number(claims.sub);
    await this.revoked.revoke(
      claims.jti,
      Number.isSafeInteger(uid) && claims.sid !== undefined ? uid : 0,
      claims.exp,
    );
  }
}
