import { parseCookie, stringifySetCookie } from 'cookie';
import type { Authenticated, TokenService } from '../sessions/index.js';
import { jtiIssuedMs } from '../../platform/jwt/token-ids.js';

/** The cookie that carries the pages' first-party token to the authorization endpoint. */
export const SESSION_COOKIE = 'ac_session';

/** A first-party token as the v1 API issues it: three base64url parts. */
const TOKEN_SHAPE = /^[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+\.[A-Za-z0-9\-_]+$/;

/**
 * The browser session of the pages (docs/oidc-internals.md): the first-party token of the
 * last sign-in, kept in an HttpOnly cookie and checked exactly like `me` checks a Bearer
 * token, so logout, logout-all, password reset and bans end it too.
 */
export class BrowserSessions {
  private readonly secure: boolean;

  constructor(
    private readonly tokens: TokenService,
    private readonly centerAppId: string,
    baseUrl: string,
    private readonly now: () => number,
  ) {
    this.secure = baseUrl.startsWith('https://');
  }

  /** The session token of a request's Cookie header, unchecked. */
  tokenOf(cookieHeader: string | undefined): string | undefined {
    if (!cookieHeader) return undefined;
    const value = parseCookie(cookieHeader)[SESSION_COOKIE];
    return value && TOKEN_SHAPE.test(value) ? value : undefined;
  }

  /**
   * The signed-in person of a request, or undefined when the cookie is missing, expired,
   * revoked, cut off, of another app, or its user is banned or gone.
   */
  async current(
    cookieHeader: string | undefined,
  ): Promise<Authenticated | undefined> {
    const token = this.tokenOf(cookieHeader);
    if (!token) return undefined;
    try {
      const auth = await this.tokens.check(`Bearer ${token}`);
      return auth.claims.app === this.centerAppId ? auth : undefined;
    } catch {
      return undefined;
    }
  }

  /** Set-Cookie for a first-party token: lives exactly as long as the token. */
  setCookie(token: string, exp: number): string {
    const maxAge = Math.max(0, exp - Math.floor(this.now() / 1000));
    return stringifySetCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.secure,
      maxAge,
    });
  }

  clearCookie(): string {
    return stringifySetCookie(SESSION_COOKIE, '', {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.secure,
      maxAge: 0,
    });
  }

  /** Ends the session for good: the token is revoked, so a copy of the cookie is useless. */
  async revoke(session: Authenticated): Promise<void> {
    await this.tokens.revoke(session.claims);
  }
}

/** When the person signed in, in ms: the issue time the v1 API stamps into the jti. */
export function signedInAt(auth: Authenticated): number {
  const ms = jtiIssuedMs(auth.claims.jti);
  return ms >= 0 ? ms : auth.claims.iat * 1000;
}
