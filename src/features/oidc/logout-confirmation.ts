import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Authenticated } from '../sessions/index.js';

/**
 * The CSRF token of the sign-out confirmation page: an HMAC of the browser session's token
 * id under a key derived from JWT_SECRET for this purpose only. Bound to that session (another
 * session's token never matches), unguessable without the secret, needing no table; once the
 * confirmation ends the session, its token can end nothing again.
 */
export class LogoutConfirmations {
  private readonly key: Buffer;

  constructor(jwtSecret: string) {
    this.key = Buffer.from(
      hkdfSync(
        'sha256',
        jwtSecret,
        '',
        'account-center oidc end-session confirmation',
        32,
      ),
    );
  }

  tokenFor(session: Authenticated): string {
    return createHmac('sha256', this.key)
      .update(session.claims.jti)
      .digest('base64url');
  }

  /** Constant-time comparison; anything that is not a token of this session is false. */
  matches(session: Authenticated, presented: string | undefined): boolean {
    if (presented === undefined) return false;
    const expected = Buffer.from(this.tokenFor(session));
    const given = Buffer.from(presented);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
