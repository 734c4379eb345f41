import { parseCookie, stringifySetCookie } from 'cookie';
import {
  randomToken,
  safeEqual,
  sha256Hex,
} from '../../platform/crypto/random.js';

/** The cookie that ties a flow's state and tickets to the browser that began it. */
export const BINDING_COOKIE = 'ac_upstream';
/** A flow (state, tickets) lives this long: the time to sign in at the provider and finish here. */
export const FLOW_TTL_MS = 10 * 60_000;
const VALUE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The browser binding of docs/api.md §14.2: an HttpOnly cookie of 256 random bits, whose hash
 * every state and ticket records. A state or ticket presented by another browser (a link
 * sent to a victim, a callback URL replayed elsewhere) finds another hash and is refused.
 * SameSite=Lax: the provider's redirect back is a top-level GET, which carries it.
 */
export class BrowserBinding {
  private readonly secure: boolean;

  constructor(baseUrl: string) {
    this.secure = baseUrl.startsWith('https://');
  }

  /** The browser's binding value, if its cookie holds a well-formed one. */
  of(cookieHeader: string | undefined): string | undefined {
    if (!cookieHeader) return undefined;
    const value = parseCookie(cookieHeader)[BINDING_COOKIE];
    return value !== undefined && VALUE.test(value) ? value : undefined;
  }

  /** The browser's value, or a new one; the cookie is (re)set for the flow's lifetime either way. */
  ensure(cookieHeader: string | undefined): {
    hash: string;
    setCookie: string;
  } {
    const value = this.of(cookieHeader) ?? randomToken(32);
    return { hash: sha256Hex(value), setCookie: this.cookie(value) };
  }

  /**
   * The same value set again for another FLOW_TTL_MS, once a ticket is issued on it: the ticket
   * must not outlive the cookie it is bound to. Only for a request whose cookie matched.
   */
  renewed(cookieHeader: string | undefined): string | undefined {
    const value = this.of(cookieHeader);
    return value === undefined ? undefined : this.cookie(value);
  }

  private cookie(value: string): string {
    return stringifySetCookie(BINDING_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.secure,
      maxAge: FLOW_TTL_MS / 1000,
    });
  }

  /** Whether this request comes from the browser whose binding hashes to `hash`. */
  matches(cookieHeader: string | undefined, hash: string): boolean {
    const value = this.of(cookieHeader);
    return value !== undefined && safeEqual(sha256Hex(value), hash);
  }
}
