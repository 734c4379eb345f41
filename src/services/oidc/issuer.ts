import { newTimedSecret, timedSecretKey, timeOrderedId } from '../crypto.js';
import type { App, RefreshTokenRepo, User } from '../../storage/types.js';
import { scopeList } from './claims.js';
import type { ArrivalOrder } from './arrival-order.js';
import type { SigningAccess, TokenMinter } from './token-minter.js';

import type { TokenResponse } from '../../contracts/index.js';

export type { TokenResponse };

export interface UserGrant {
  app: App;
  user: User;
  scope: string;
  /** When the person signed in (ms). */
  authTimeMs: number;
  nonce?: string | null;
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
    private readonly now: () => number = Date.now,
    /** Told of each refresh token as it is handed out, to tell later requests from racing ones. */
    private readonly arrivals?: Pick<ArrivalOrder, 'issuing' | 'issued'>,
  ) {}

  /**
   * A new family row, created before any token naming it is handed out or recorded, so a
   * revocation can never miss it. The access token may already be being signed.
   */
  async startFamily(app: App, user: User, familyId = newFamilyId()): Promise<string> {
    await this.refreshTokens.createFamily({ familyId, userId: user.id, clientId: app.clientId, createdAt: this.now() });
    return familyId;
  }

  /** The access token's claims, its signature started (TokenMinter.startAccess). */
  accessFor(g: UserGrant & { familyId: string }, scope = g.scope): SigningAccess {
    return this.minter.startAccess({ sub: String(g.user.id), clientId: g.app.clientId, scope, familyId: g.familyId, notBeforeMs: g.user.tokensValidAfter });
  }

  /**
   * The rest of the response: the refresh token (stored hashed, with the granted scope) and
   * the ID token. The refresh row is written while the access token is signed, and the ID
   * token (its `at_hash` needs the signed access token) is signed while that row commits.
   * `stillValid` runs once all is stored and signed, before the answer is handed out.
   */
  async complete(
    g: UserGrant & { familyId: string }, access: SigningAccess, refreshScope = g.scope, stillValid?: () => Promise<void>,
  ): Promise<TokenResponse> {
    let refresh: string | undefined;
    let tokenHash: string | undefined;
    let stored: Promise<void> | undefined;
    if (g.app.grantTypes.includes('refresh_token')) {
      // Opaque: the time, then 256 random bits; stored only under `timedSecretKey`.
      refresh = newTimedSecret();
      tokenHash = timedSecretKey(refresh);
      this.arrivals?.issuing(tokenHash);
      const now = this.now();
      stored = this.refreshTokens.create({
        tokenHash, familyId: g.familyId, clientId: g.app.clientId, userId: g.user.id, scope: refreshScope,
        authTime: g.authTimeMs, createdAt: now, expiresAt: now + this.settings.refreshTokenTtl * 1000,
      });
    }
    let idToken: string | undefined;
    let accessToken: string;
    try {
      [idToken, accessToken] = await Promise.all([this.idToken(g, access), access.token, stored]);
      if (stillValid) await stillValid();
    } finally {
      // Answers leave at the end of the event loop's turn (http/plugins/turn-end-send.ts); the
      // token counts as handed out from then on, and a request that came before is racing it.
      const { arrivals } = this;
      if (tokenHash !== undefined && arrivals) setImmediate(() => arrivals.issued(tokenHash));
    }
    const body: TokenResponse = {
      access_token: accessToken, token_type: 'Bearer', expires_in: this.settings.accessTokenTtl, scope: access.claims.scope,
    };
    if (refresh !== undefined) body.refresh_token = refresh;
    if (idToken !== undefined) body.id_token = idToken;
    return body;
  }

  private async idToken(g: UserGrant, access: SigningAccess): Promise<string | undefined> {
    const scopes = scopeList(access.claims.scope);
    if (!scopes.includes('openid')) return undefined;
    const accessToken = await access.token;
    return this.minter.id({ user: g.user, clientId: g.app.clientId, scopes, authTimeMs: g.authTimeMs, nonce: g.nonce, accessToken });
  }
}
