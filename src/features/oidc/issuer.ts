import { newTimedSecret, timedSecretKey } from '../../platform/crypto/random.js';
import { newSid } from '../../platform/jwt/token-ids.js';
import type { App } from '../apps/index.js';
import type { RefreshTokenRepo } from './repository.js';
import type { User } from '../accounts/index.js';
import { scopeList } from './claims.js';
import type { MintedAccess, TokenMinter } from './token-minter.js';

import type { TokenResponse } from './contract.js';

export type { TokenResponse };

export interface UserGrant {
  app: App;
  user: User;
  scope: string;
  /** When the person signed in (ms). */
  authTimeMs: number;
  nonce?: string | null;
  /** How the person signed in (the ID token's `amr`), when the sign-in said so. */
  amr?: string | null;
  /** An existing family (refresh), or undefined to start one. */
  familyId?: string;
}

/** The family's id, its access tokens' `sid`: time first, so its rows are appended to their indexes, not scattered. */
export const newFamilyId = newSid;

/**
 * A rotation's part in its response: the refresh token it chose before using up the one
 * presented (the use names it as the successor), that token's scope, and a last check that
 * the family is still live.
 */
export interface Rotation {
  refreshToken: string;
  scope: string;
  stillValid: () => Promise<void>;
}

/**
 * Builds token responses for a person: access token bound to its refresh family (`sid`),
 * a refresh token when the client has that grant, an ID token when `openid` was granted.
 */
export class TokenIssuer {
  constructor(
    private readonly refreshTokens: RefreshTokenRepo,
    private readonly minter: TokenMinter,
    private readonly settings: { accessTokenTtl: number; refreshTokenTtl: number },
    private readonly now: () => number,
  ) {}

  /**
   * A new family row; created before any token names it, so a revocation can never miss it,
   * and so the client's part in the sign-in `sessionId` is on record before its first ID token.
   */
  async startFamily(app: App, user: User, sessionId: string | null = null, scope = ''): Promise<string> {
    const familyId = newFamilyId();
    const issuesIdTokens = scopeList(scope).includes('openid');
    await this.refreshTokens.createFamily({ familyId, userId: user.id, clientId: app.clientId, createdAt: this.now(), sessionId, issuesIdTokens });
    return familyId;
  }

  accessFor(g: UserGrant & { familyId: string }, scope = g.scope): Promise<MintedAccess> {
    return this.minter.access({ sub: String(g.user.id), clientId: g.app.clientId, scope, familyId: g.familyId, notBeforeMs: g.user.tokensValidAfter });
  }

  /**
   * The rest of the response once the access token is settled: the ID token, then the refresh
   * token (stored hashed, with the granted scope), a new one or the rotation's.
   *
   * The refresh token is stored last, with nothing left to wait for between its row and the
   * answer: a request that finds a rotation's successor stored came after that rotation's
   * answer, which is how a reused token is told from a racing one (grants.ts). Each step waits
   * for the one before; signing the ID token while the refresh row commits, and the access
   * token while the family row does, was measured twice and cost CPU (see docs/performance.md,
   * "OIDC token endpoints").
   */
  async complete(g: UserGrant & { familyId: string }, access: MintedAccess, rotation?: Rotation): Promise<TokenResponse> {
    const scopes = scopeList(access.claims.scope);
    const idToken = scopes.includes('openid')
      ? await this.minter.id({ user: g.user, clientId: g.app.clientId, scopes, authTimeMs: g.authTimeMs, nonce: g.nonce, amr: g.amr, accessToken: access.token, sid: g.familyId })
      : undefined;
    if (rotation) await rotation.stillValid();
    // Opaque: the time, then 256 random bits; stored only under `timedSecretKey`.
    const refresh = rotation?.refreshToken ?? (g.app.grantTypes.includes('refresh_token') ? newTimedSecret() : undefined);
    if (refresh !== undefined) {
      const now = this.now();
      await this.refreshTokens.create({
        tokenHash: timedSecretKey(refresh), familyId: g.familyId, clientId: g.app.clientId, userId: g.user.id, scope: rotation?.scope ?? g.scope,
        authTime: g.authTimeMs, amr: g.amr ?? null, createdAt: now, expiresAt: now + this.settings.refreshTokenTtl * 1000,
      });
    }
    return {
      access_token: access.token, token_type: 'Bearer', expires_in: this.settings.accessTokenTtl, scope: access.claims.scope,
      ...(refresh !== undefined && { refresh_token: refresh }),
      ...(idToken !== undefined && { id_token: idToken }),
    };
  }
}
