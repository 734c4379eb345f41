import {
  newTimedSecret,
  timedSecretKey,
} from '../../platform/crypto/random.js';
import { newSid } from '../../platform/jwt/token-ids.js';
import type { App } from '../apps/index.js';
import type { RefreshFamily, RefreshTokenRepo } from './repository.js';
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

/** The family's id, its access tokens' `sid`. */
export const newFamilyId = newSid;

/**
 * A rotation's part in its response: the refresh token it chose before using up the one
 * presented (the use names it as the successor) and that token's scope.
 */
export interface Rotation {
  refreshToken: string;
  scope: string;
}

type NewRefreshToken = Parameters<RefreshTokenRepo['create']>[0];

/** A response's tokens, signed, and the refresh token's row to store before it is answered. */
export interface SignedTokens {
  response: TokenResponse;
  refreshRow: NewRefreshToken | undefined;
}

/**
 * Builds token responses for a person: access token bound to its refresh family (`sid`),
 * a refresh token when the client has that grant, an ID token when `openid` was granted.
 */
export class TokenIssuer {
  constructor(
    private readonly refreshTokens: RefreshTokenRepo,
    private readonly minter: TokenMinter,
    private readonly settings: {
      accessTokenTtl: number;
      refreshTokenTtl: number;
    },
    private readonly now: () => number,
  ) {}

  /** A new family's row, not stored yet: its id is the access and ID tokens' `sid`. */
  newFamily(
    app: App,
    user: User,
    sessionId: string | null = null,
    scope = '',
  ): Omit<RefreshFamily, 'revokedAt'> {
    const issuesIdTokens = scopeList(scope).includes('openid');
    return {
      familyId: newFamilyId(),
      userId: user.id,
      clientId: app.clientId,
      createdAt: this.now(),
      sessionId,
      issuesIdTokens,
    };
  }

  /**
   * A new family row, stored at once, before any token names it: a revocation can never miss
   * it, and the client's part in the sign-in `sessionId` is on record before its first ID token.
   */
  async startFamily(
    app: App,
    user: User,
    sessionId: string | null = null,
    scope = '',
  ): Promise<string> {
    const family = this.newFamily(app, user, sessionId, scope);
    await this.refreshTokens.createFamily(family);
    return family.familyId;
  }

  accessFor(
    g: UserGrant & { familyId: string },
    scope = g.scope,
  ): Promise<MintedAccess> {
    return this.minter.access({
      sub: String(g.user.id),
      clientId: g.app.clientId,
      scope,
      familyId: g.familyId,
      notBeforeMs: g.user.tokensValidAfter,
      ...(scopeList(scope).includes('roles') && { roles: g.user.roles }),
    });
  }

  /**
   * The rest of the response once the access token is settled: the ID token, signed, and the
   * refresh token, a new one or the rotation's, with the row that stores it (hashed, with the
   * granted scope). Nothing is stored here: the caller stores the row with store(), in the
   * transaction that also uses up what the tokens were granted for.
   */
  async sign(
    g: UserGrant & { familyId: string },
    access: MintedAccess,
    rotation?: Rotation,
  ): Promise<SignedTokens> {
    const scopes = scopeList(access.claims.scope);
    const idToken = scopes.includes('openid')
      ? await this.minter.id({
          user: g.user,
          clientId: g.app.clientId,
          scopes,
          authTimeMs: g.authTimeMs,
          nonce: g.nonce,
          amr: g.amr,
          accessToken: access.token,
          sid: g.familyId,
        })
      : undefined;
    // Opaque: the time, then 256 random bits; stored only under `timedSecretKey`.
    const refresh =
      rotation?.refreshToken ??
      (g.app.grantTypes.includes('refresh_token')
        ? newTimedSecret()
        : undefined);
    const now = this.now();
    const refreshRow =
      refresh === undefined
        ? undefined
        : {
            tokenHash: timedSecretKey(refresh),
            familyId: g.familyId,
            clientId: g.app.clientId,
            userId: g.user.id,
            scope: rotation?.scope ?? g.scope,
            authTime: g.authTimeMs,
            amr: g.amr ?? null,
            createdAt: now,
            expiresAt: now + this.settings.refreshTokenTtl * 1000,
          };
    const response: TokenResponse = {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: this.settings.accessTokenTtl,
      scope: access.claims.scope,
      ...(refresh !== undefined && { refresh_token: refresh }),
      ...(idToken !== undefined && { id_token: idToken }),
    };
    return { response, refreshRow };
  }

  /**
   * Stores the refresh token of `signed` through `refreshTokens` (a transaction's), the last
   * write before the answer: a request that finds a rotation's successor stored came after that
   * rotation's answer was ready, which is how a reused token is told from a racing one (grants.ts).
   */
  async store(
    signed: SignedTokens,
    refreshTokens: Pick<RefreshTokenRepo, 'create'>,
  ): Promise<TokenResponse> {
    if (signed.refreshRow !== undefined)
      await refreshTokens.create(signed.refreshRow);
    return signed.response;
  }
}
