import { couldBeUserSubject } from '../apps/index.js';
import { verifyPkce } from '../authorization/index.js';
import { splitScope } from '../authorization/index.js';
import type { AuditLog } from '../audit/index.js';
import type { Caller } from '../kit.js';
import { timedSecretKey } from '../../platform/crypto/random.js';
import type { SessionCache } from '../sessions/index.js';
import type { App } from '../apps/index.js';
import type { AuthCodeRepo } from '../authorization/index.js';
import type { RefreshToken, RefreshTokenRepo } from './repository.js';
import type { User } from '../accounts/index.js';
import type { TokenIssuer, TokenResponse } from './issuer.js';
import type { Arrival, ArrivalOrder } from './arrival-order.js';
import { OAuthError, invalidGrant } from './oauth-error.js';
import { param, required, type Params } from './params.js';
import type { TokenMinter } from './token-minter.js';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface GrantDeps {
  codes: AuthCodeRepo;
  refreshTokens: RefreshTokenRepo;
  state: SessionCache;
  issuer: TokenIssuer;
  minter: TokenMinter;
  audit: AuditLog;
  arrivals: ArrivalOrder;
  now: () => number;
}

/** A person who may still receive tokens: exists, not banned, not cut off after `sinceMs`. */
async function usableUser(state: SessionCache, userId: number, sinceMs: number): Promise<User | undefined> {
  const user = await state.user(userId);
  if (!user || user.banned || sinceMs <= user.tokensValidAfter) return undefined;
  return user;
}

/** A requested scope narrower than (or equal to) the granted one; undefined keeps the grant (RFC 6749 §6). */
function narrowed(requested: string | undefined, granted: string): string {
  if (requested === undefined) return granted;
  const have = splitScope(granted);
  const asked = splitScope(requested);
  if (asked.length === 0 || !asked.every((s) => have.includes(s))) throw new OAuthError('invalid_scope', 'The requested scope exceeds the granted scope');
  return asked.join(' ');
}

/** The authorization_code, refresh_token and client_credentials grants (docs/api.md §12.4). */
export class TokenGrants {
  constructor(private readonly d: GrantDeps) {}

  async authorizationCode(app: App, body: Params, caller: Caller): Promise<TokenResponse> {
    const { codes, now } = this.d;
    const codeHash = timedSecretKey(required(body, 'code'));
    const redirectUri = param(body, 'redirect_uri');
    const verifier = param(body, 'code_verifier');
    const code = await codes.findByHash(codeHash);
    if (!code || code.flow !== 'oidc' || code.clientId !== app.clientId) throw invalidGrant('The authorization code is invalid');
    if (code.usedAt !== null) return this.replayed(codeHash, caller);
    if (code.expiresAt <= now()) throw invalidGrant('The authorization code has expired');
    // RFC 6749 §4.1.3: required and identical when it was sent at authorize; when it was not, any value sent must still be the one used.
    if (code.redirectUriGiven ? redirectUri !== code.redirectUri : redirectUri !== undefined && redirectUri !== code.redirectUri) {
      throw invalidGrant('redirect_uri does not match the authorization request');
    }
    // A public client's code without PKCE is never redeemed, whatever let it be issued.
    if (app.clientType === 'public' && code.codeChallenge === null) throw invalidGrant('PKCE is required for public clients');
    if (!verifyPkce(code.codeChallenge, verifier).ok) throw invalidGrant('PKCE verification failed');
    const user = await usableUser(this.d.state, code.userId, code.createdAt);
    if (!user) throw invalidGrant('The authorization code is invalid');

    const grant = { app, user, scope: code.scope, authTimeMs: code.authTime ?? code.createdAt, nonce: code.nonce, amr: code.amr };
    const familyId = await this.d.issuer.startFamily(app, user);
    const access = await this.d.issuer.accessFor({ ...grant, familyId });
    // One conditional UPDATE uses the code up and records what it issued: exactly one
    // concurrent caller wins, and a replay however interleaved finds the jti and family to revoke.
    if (!(await codes.consumeOidc(codeHash, now(), { jti: access.claims.jti, exp: access.claims.exp, refreshFamily: familyId }))) {
      await this.d.refreshTokens.revokeFamily(familyId, now());
      const again = await codes.findByHash(codeHash);
      if (again?.usedAt != null) return this.replayed(codeHash, caller);
      throw invalidGrant('The authorization code has expired');
    }
    const out = await this.d.issuer.complete({ ...grant, familyId }, access);
    await this.d.audit.record('login.success', { actor: user.username, ip: caller.ip, target: app.clientId, detail: { method: 'oidc', grant: 'authorization_code' } });
    return out;
  }

  /** RFC 6749 §4.1.2 / RFC 9700 §4.5: a reused code revokes the tokens issued from it. */
  private async replayed(codeHash: string, caller: Caller): Promise<never> {
    const row = await this.d.codes.markReplayed(codeHash, this.d.now());
    if (row?.tokenJti && row.tokenExp !== null) await this.d.state.revoke(row.tokenJti, row.userId, row.tokenExp);
    if (row?.refreshFamily) await this.d.refreshTokens.revokeFamily(row.refreshFamily, this.d.now());
    await this.d.audit.record('code.replay', { ip: caller.ip, target: row?.clientId ?? null, detail: { token_revoked: Boolean(row?.tokenJti), flow: 'oidc' } });
    throw invalidGrant('The authorization code has already been used');
  }

  /** `arrival`: when the request reached the endpoint, before any work, to tell a race from reuse. */
  async refreshToken(app: App, body: Params, caller: Caller, arrival: Arrival): Promise<TokenResponse> {
    const { refreshTokens, now } = this.d;
    const hash = timedSecretKey(required(body, 'refresh_token'));
    const requestedScope = param(body, 'scope');
    const stored = await refreshTokens.findByHash(hash);
    // Bound to its client: another client presenting it learns nothing and burns nothing.
    if (!stored || stored.clientId !== app.clientId) throw invalidGrant('The refresh token is invalid');
    const scope = narrowed(requestedScope, stored.scope);
    const used = await refreshTokens.use(hash, now());
    if (!used) return this.refreshRefused(stored, arrival, caller);

    const family = await refreshTokens.findFamily(used.familyId);
    const user = family && (await usableUser(this.d.state, used.userId, family.createdAt));
    if (!family || !user) {
      await refreshTokens.revokeFamily(used.familyId, now());
      throw invalidGrant('The refresh token is invalid');
    }
    const grant = { app, user, scope: used.scope, authTimeMs: used.authTime, amr: used.amr, familyId: used.familyId };
    const access = await this.d.issuer.accessFor(grant, scope);
    // The family may have been revoked while this rotation ran; then the new tokens die with it.
    return this.d.issuer.complete(grant, access, used.scope, async () => {
      if ((await refreshTokens.findFamily(used.familyId))?.revokedAt != null) throw invalidGrant('The refresh token is invalid');
    });
  }

  /**
   * Why a rotation lost. A request that arrived after the rotated token's successor was issued
   * is reuse: the whole family dies (RFC 9700 §4.14.2). One that arrived while the winning
   * rotation was still running is the same client racing itself (two tabs, a retry, two
   * instances): it is refused without harming the winner's fresh tokens.
   */
  private async refreshRefused(stored: RefreshToken, arrival: Arrival, caller: Caller): Promise<never> {
    const now = this.d.now();
    const current = await this.d.refreshTokens.findByHash(stored.tokenHash);
    if (current?.usedAt != null) {
      const latest = await this.d.refreshTokens.latestInFamily(current.familyId);
      const successorIssuedBefore = latest !== undefined && latest.tokenHash !== current.tokenHash
        && this.d.arrivals.cameAfter(arrival, latest.tokenHash, latest.createdAt);
      if (!successorIssuedBefore) throw new OAuthError('invalid_grant', 'The refresh token is being rotated by a concurrent request', 400, {}, true);
      if (await this.d.refreshTokens.revokeFamily(current.familyId, now)) {
        await this.d.audit.record('refresh.reuse', { ip: caller.ip, target: current.clientId, detail: { family_revoked: true } });
      }
      throw invalidGrant('The refresh token has already been used');
    }
    throw invalidGrant('The refresh token is invalid or expired');
  }

  /** RFC 6749 §4.4: the client acts for itself; `sub` is its id, no refresh or ID token. */
  async clientCredentials(app: App, body: Params): Promise<TokenResponse> {
    if (app.clientType !== 'confidential') throw new OAuthError('unauthorized_client', 'Public clients cannot use client_credentials');
    // An id registered before digits-only ids were refused would mint a token whose sub is a person's.
    if (couldBeUserSubject(app.clientId)) throw new OAuthError('unauthorized_client', 'This client id cannot be the subject of a token');
    const requested = param(body, 'scope');
    const allowed = app.scopes.filter((s) => s !== 'openid' && s !== 'offline_access');
    const scope = requested === undefined ? allowed.join(' ') : splitScope(requested).join(' ');
    if (requested !== undefined && (scope === '' || !splitScope(scope).every((s) => allowed.includes(s)))) {
      throw new OAuthError('invalid_scope', 'The requested scope is not allowed for this client');
    }
    const access = await this.d.minter.access({ sub: app.clientId, clientId: app.clientId, scope });
    return { access_token: access.token, token_type: 'Bearer', expires_in: access.claims.exp - access.claims.iat, scope };
  }
}
