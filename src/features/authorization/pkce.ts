/** PKCE (RFC 7636), S256 only (docs/api.md §5.4–5.5, §5). */
import { hash, timingSafeEqual } from 'node:crypto';
import { accept, refuse, type Outcome } from '../../errors/outcome.js';

export const S256 = 'S256';
/** base64url of a SHA-256 digest: exactly 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function isValidVerifier(v: string): boolean {
  return VERIFIER.test(v);
}

export function s256(verifier: string): string {
  return hash('sha256', verifier, 'base64url');
}

export interface PkceBinding {
  challenge: string;
  method: typeof S256;
}

/** Empty strings count as absent, so `""` cannot smuggle a challenge or verifier past a check. */
const given = (v: string | undefined): string | undefined =>
  v === undefined || v === '' ? undefined : v;

/**
 * The PKCE binding a code will carry, decided at authorize. Public clients must bind one;
 * confidential clients may. Only S256 is accepted, and the challenge must look like one.
 */
export function pkceForAuthorize(
  clientType: string,
  rawChallenge?: string,
  rawMethod?: string,
): Outcome<PkceBinding | null> {
  const challenge = given(rawChallenge);
  const method = given(rawMethod);
  if (method !== undefined && method !== S256) return refuse('s256Only');
  if (challenge === undefined) {
    if (clientType === 'public') return refuse('pkceRequired');
    if (method !== undefined) return refuse('badParam', 'code_challenge');
    return accept(null);
  }
  if (method === undefined) return refuse('s256Only');
  if (!S256_CHALLENGE.test(challenge))
    return refuse('badParam', 'code_challenge');
  return accept({ challenge, method: S256 });
}

/**
 * Checks the verifier sent at exchange against the code's challenge. A verifier for a code
 * without a challenge is refused too: a PKCE downgrade (RFC 9700 §2.1.1).
 */
export function verifyPkce(
  challenge: string | null,
  rawVerifier?: string,
): Outcome<void> {
  const verifier = given(rawVerifier);
  if (challenge === null)
    return verifier === undefined
      ? accept(undefined)
      : refuse('verifierFailed');
  if (verifier === undefined) return refuse('verifierMissing');
  if (!isValidVerifier(verifier)) return refuse('badParam', 'code_verifier');
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b)
    ? accept(undefined)
    : refuse('verifierFailed');
}
