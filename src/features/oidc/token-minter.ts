import { hash } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { randomToken } from '../../platform/crypto/random.js';
import { NOT_CACHED } from '../../platform/cache/reloading-cache.js';
import type { User } from '../accounts/index.js';
import type { SigningKeys } from './keys.js';
import { userClaims } from './claims.js';
import { VerifiedTokens } from '../sessions/index.js';

/** The claims of our RFC 9068 access tokens. `sid` (the refresh family) is absent on client_credentials tokens. */
export interface AccessClaims extends JWTPayload {
  iss: string;
  sub: string;
  aud: string;
  client_id: string;
  scope: string;
  jti: string;
  iat: number;
  exp: number;
  sid?: string;
}

export interface MintedAccess {
  token: string;
  claims: AccessClaims;
}

/**
 * Like the seed's token ids, the jti starts with its issue time in milliseconds, so a
 * logout-all or password reset cuts off tokens issued earlier within the same second.
 */
export function newJti(issuedMs: number): string {
  return `${issuedMs.toString(36)}.${randomToken(16)}`;
}

export function jtiIssuedMs(jti: string): number {
  const dot = jti.indexOf('.');
  const ms = dot > 0 ? parseInt(jti.slice(0, dot), 36) : NaN;
  return Number.isFinite(ms) ? ms : -1;
}

/** OIDC Core §3.1.3.6: the left half of the hash of the access token, hash by the signing alg. */
function atHash(accessToken: string, alg: string): string {
  const digest = hash(alg === 'EdDSA' ? 'sha512' : 'sha256', accessToken, 'buffer');
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

  constructor(private readonly keys: SigningKeys, private readonly settings: MinterSettings, private readonly now: () => number = Date.now) {}

  async access(input: { sub: string; clientId: string; scope: string; familyId?: string; notBeforeMs?: number }): Promise<MintedAccess> {
    const key = await this.keys.current();
    // Never minted in or before a user's cut-off millisecond, or it would be born dead.
    const ms = Math.max(this.now(), (input.notBeforeMs ?? 0) + 1);
    const iat = Math.floor(ms / 1000);
    const claims: AccessClaims = {
      iss: this.settings.issuer, sub: input.sub, aud: input.clientId, client_id: input.clientId, scope: input.scope,
      jti: newJti(ms), iat, exp: iat + this.settings.accessTokenTtl,
      ...(input.familyId !== undefined && { sid: input.familyId }),
    };
    return { token: await key.signAccess(claims), claims };
  }

  async id(input: { user: User; clientId: string; scopes: readonly string[]; authTimeMs: number; nonce?: string | null; amr?: string | null; accessToken: string }): Promise<string> {
    const key = await this.keys.current();
    const iat = Math.floor(this.now() / 1000);
    const payload: JWTPayload = {
      iss: this.settings.issuer, sub: String(input.user.id), aud: input.clientId, azp: input.clientId,
      iat, exp: iat + this.settings.idTokenTtl, auth_time: Math.floor(input.authTimeMs / 1000),
      ...(input.nonce && { nonce: input.nonce }),
      // RFC 8176: `fed` after a sign-in through another account (docs/api.md §14.5).
      ...(input.amr && { amr: input.amr.split(' ') }),
      at_hash: atHash(input.accessToken, key.alg),
      ...userClaims(input.user, input.scopes),
    };
    return key.signId(payload);
  }

  /** The claims of a token verified before, without waiting (undefined: expired); NOT_CACHED: call verifyAccess(). */
  verifiedBefore(token: string): AccessClaims | undefined | typeof NOT_CACHED {
    const hit = this.verified.get(token);
    if (hit === undefined) return NOT_CACHED;
    return hit.exp * 1000 > this.now() ? hit : undefined;
  }

  /** The claims of one of our access tokens with a valid signature, issuer and expiry, or undefined. */
  async verifyAccess(token: string): Promise<AccessClaims | undefined> {
    const hit = this.verifiedBefore(token);
    if (hit !== NOT_CACHED) return hit;
    const claims = await this.verifySignature(token);
    if (claims !== undefined) this.verified.set(token, claims);
    return claims;
  }

  private async verifySignature(token: string): Promise<AccessClaims | undefined> {
    try {
      const { kid } = decodeProtectedHeader(token);
      if (typeof kid !== 'string') return undefined;
      const key = await this.keys.publicKey(kid);
      if (!key) return undefined;
      const { payload } = await jwtVerify(token, key.key, {
        issuer: this.settings.issuer, typ: 'at+jwt', algorithms: [key.alg], currentDate: new Date(this.now()),
      });
      const c = payload as AccessClaims;
      if (typeof c.sub !== 'string' || typeof c.client_id !== 'string' || typeof c.jti !== 'string' || typeof c.exp !== 'number' || typeof c.scope !== 'string') return undefined;
      return c;
    } catch {
      return undefined;
    }
  }
}
