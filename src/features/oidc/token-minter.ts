import { hash } from 'node:crypto';
import { jwtKeyId, verifyJwt, type JwtClaims } from '../../platform/jwt/jwt.js';
import { newJti } from '../../platform/jwt/token-ids.js';
import type { User } from '../accounts/index.js';
import type { SigningKeys } from './keys.js';
import { userClaims } from './claims.js';
import { acrOf } from './requested-claims.js';
import { VerifiedTokens } from '../sessions/index.js';

/** The claims of our RFC 9068 access tokens. `sid` (the refresh family) is absent on client_credentials tokens. */
export interface AccessClaims extends JwtClaims {
  iss: string;
  sub: string;
  aud: string;
  client_id: string;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
  sid?: string;
  /** With scope `roles`: the roles the person held when the token was issued. */
  roles?: string[];
}

export interface MintedAccess {
  token: string;
  claims: AccessClaims;
}

/** OIDC Core §3.1.3.6: the left half of the hash of the access token, hash by the signing alg. */
function atHash(accessToken: string, alg: string): string {
  const digest = hash(
    alg === 'EdDSA' ? 'sha512' : 'sha256',
    accessToken,
    'buffer',
  );
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

export interface MinterSettings {
  issuer: string;
  accessTokenTtl: number;
  idTokenTtl: number;
}

/** Signs access and ID tokens with the current key (its kid in the header) and verifies our access tokens. */
export class TokenMinter {
  /**
   * Claims of access tokens whose signature was checked already, keyed by the whole token:
   * resource servers call userinfo and introspection with the same token again and again.
   * Expiry is checked on every use; revocation is the caller's check, as for a fresh token.
   * A key stays published longer than any token it signed lives, so no entry outlives its key.
   */
  private readonly verified = new VerifiedTokens<AccessClaims>();

  constructor(
    private readonly keys: SigningKeys,
    private readonly settings: MinterSettings,
    private readonly now: () => number = Date.now,
  ) {}

  async access(input: {
    sub: string;
    clientId: string;
    scope: string;
    familyId?: string;
    notBeforeMs?: number;
    roles?: string[];
  }): Promise<MintedAccess> {
    const key = await this.keys.current();
    // Never minted in or before a user's cut-off millisecond, or it would be born dead.
    const ms = Math.max(this.now(), (input.notBeforeMs ?? 0) + 1);
    const iat = Math.floor(ms / 1000);
    const claims: AccessClaims = {
      iss: this.settings.issuer,
      sub: input.sub,
      aud: input.clientId,
      client_id: input.clientId,
      scope: input.scope,
      jti: newJti(ms),
      iat,
      exp: iat + this.settings.accessTokenTtl,
      ...(input.familyId !== undefined && { sid: input.familyId }),
      ...(input.roles !== undefined && { roles: input.roles }),
    };
    return { token: await key.signAccess(claims), claims };
  }

  async id(input: {
    user: User;
    clientId: string;
    scopes: readonly string[];
    authTimeMs: number;
    nonce?: string | null;
    amr?: string | null;
    accessToken: string;
    sid?: string;
  }): Promise<string> {
    const key = await this.keys.current();
    const iat = Math.floor(this.now() / 1000);
    const payload: JwtClaims = {
      iss: this.settings.issuer,
      sub: String(input.user.id),
      aud: input.clientId,
      azp: input.clientId,
      iat,
      exp: iat + this.settings.idTokenTtl,
      auth_time: Math.floor(input.authTimeMs / 1000),
      ...(input.nonce && { nonce: input.nonce }),
      // RFC 8176: `fed` after a sign-in through another account (docs/api.md §14.5).
      ...(input.amr && { amr: input.amr.split(' ') }),
      // docs/oidc.md: "1" for one factor, "2" when the sign-in's amr says mfa.
      acr: acrOf(input.amr),
      at_hash: atHash(input.accessToken, key.alg),
      // The refresh family, as in the access tokens: Back-Channel Logout tokens name it too.
      ...(input.sid !== undefined && { sid: input.sid }),
      ...userClaims(input.user, input.scopes),
    };
    return key.signId(payload);
  }

  /** The claims of one of our access tokens with a valid signature, issuer and expiry, or undefined. */
  async verifyAccess(token: string): Promise<AccessClaims | undefined> {
    const hit = this.verified.get(token);
    if (hit !== undefined) return hit.exp * 1000 > this.now() ? hit : undefined;
    const claims = await this.verifySignature(token);
    if (claims !== undefined) this.verified.set(token, claims);
    return claims;
  }

  private async verifySignature(
    token: string,
  ): Promise<AccessClaims | undefined> {
    try {
      const kid = jwtKeyId(token);
      if (kid === undefined) return undefined;
      const key = await this.keys.publicKey(kid);
      if (!key) return undefined;
      const c = (await verifyJwt(token, key, {
        issuer: this.settings.issuer,
        typ: 'at+jwt',
        nowMs: this.now(),
      })) as AccessClaims;
      if (
        typeof c.sub !== 'string' ||
        typeof c.client_id !== 'string' ||
        typeof c.jti !== 'string' ||
        typeof c.exp !== 'number' ||
        typeof c.scope !== 'string'
      )
        return undefined;
      return c;
    } catch {
      return undefined;
    }
  }
}
