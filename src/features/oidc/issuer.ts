import { newTimedSecret, timedSecretKey, timeOrderedId } from '../../platform/crypto/random.js';
import type { App } from '../apps/index.js';
import type { RefreshTokenRepo } from './repository.js';
import type { User } from '../accounts/index.js';
import { scopeList } from './claims.js';
import type { ArrivalOrder } from './arrival-order.js';
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

/** Time first, so a family's row and its refresh tokens' family index are appended, not scattered. */
export const newFamilyId = (): string => timeOrderedId(Date.now());

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
    /** Told of each refresh token as it is made and handed out, to tell later requests from racing ones. */
    private readonly arrivals: Pick<ArrivalOrder, 'issuing' | 'issued'>,
  ) {}

  /** A new family row; created before any token names it, so a revocation can never miss it. */
  async startFamily(app: App, user: User): Promise<string> {
    const familyId = newFamilyId();
    await this.refreshTokens.createFamily({ familyId, userId: user.id, clientId: app.clientId, createdAt: this.now() });
    return familyId;
  }

  accessFor(g: UserGrant & { familyId: string }, scope = g.scope): Promise<MintedAccess> {
    return this.minter.access({ sub: String(g.user.id), clientId: g.app.clientId, scope, familyId: g.familyId, notBeforeMs: g.user.tokensValidAfter });
  }

  /**
   * The rest of the response once the access token is settled: the refresh token (stored
   * hashed, with the granted scope) and the ID token. `stillValid` runs once both are made,
   * before the answer is handed out.
   *
   * Each step waits for the one before. Signing the ID token while the refresh row commits,
   * and the access token while the family row does, was measured twice and cost CPU (see
   * docs/performance.md, "OIDC token endpoints").
   */
  async complete(
    g: UserGrant & { familyId: string }, access: MintedAccess, refreshScope = g.scope, stillValid?: () => Promise<void>,
  ): Promise<TokenResponse> {
    const body: TokenResponse = {
      access_token: access.token, token_type: 'Bearer', expires_in: this.settings.accessTokenTtl, scope: access.claims.scope,
    };
    // Opaque: the time, then 256 random bits; stored only under `timedSecretKey`.
    const refresh = g.app.grantTypes.includes('refresh_token') ? newTimedSecret() : undefined;
    const tokenHash = refresh === undefined ? undefined : timedSecretKey(refresh);
    if (tokenHash !== undefined) this.arrivals.issuing(tokenHash);
    try {
      if (refresh !== undefined && tokenHash !== undefined) {
        const now = this.now();
        await this.refreshTokens.create({
          tokenHash, familyId: g.familyId, clientId: g.app.clientId, userId: g.user.id, scope: refreshScope,
          authTime: g.authTimeMs, amr: g.amr ?? null, createdAt: now, expiresAt: now + this.settings.refreshTokenTtl * 1000,
        });
        body.refresh_token = refresh;
      }
      const scopes = scopeList(access.claims.scope);
      if (scopes.includes('openid')) {
        body.id_token = await this.minter.id({ user: g.user, clientId: g.app.clientId, scopes, authTimeMs: g.authTimeMs, nonce: g.nonce, amr: g.amr, accessToken: access.token });
      }
      if (stillValid) await stillValid();
    } finally {
      // Answers leave at the end of the event loop's turn (platform/http/turn-end-send.ts); the
      // token counts as handed out from then on, and a request that came before is racing it.
      if (tokenHash !== undefined) setImmediate(() => this.arrivals.issued(tokenHash));
    }
    return body;
  }
}
