/** Callback addresses and browser origins (docs/api.md §4.1, §6; docs/api.md §4, §5). */

export const REDIRECT_URI_MAX = 2048;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** RFC 8252 §7.1: a private-use scheme is a reverse domain name, so it always holds a dot. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(?:\.[a-z0-9+-]+)+$/;
const UNSAFE_CHARS = /[\s\u0000-\u001f\u007f]/;
/** Non-web origins (e.g. `tauri://localhost`, `chrome-extension://id`). */
const OTHER_ORIGIN =
  /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/;

/**
 * An absolute URI without fragment or user info: https anywhere, http only on a loopback
 * host, or a private-use scheme for native apps (`com.example.app:/cb`).
 */
export function isValidRedirectUri(uri: string): boolean {
  if (
    uri.length === 0 ||
    uri.length > REDIRECT_URI_MAX ||
    UNSAFE_CHARS.test(uri) ||
    uri.includes('#')
  )
    return false;
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return false;
  }
  const scheme = u.protocol.slice(0, -1);
  if (scheme === 'https' || scheme === 'http') {
    if (u.hostname === '' || u.username !== '' || u.password !== '')
      return false;
    return scheme === 'https' || LOOPBACK_HOSTS.has(u.hostname);
  }
  return PRIVATE_USE_SCHEME.test(scheme);
}

/** Exact, character-for-character comparison: no normalisation, no prefix or host matching. */
export function isRegisteredRedirect(
  registered: readonly string[],
  uri: string,
): boolean {
  return registered.includes(uri);
}

/** `scheme://host[:port]` exactly as a browser sends it in `Origin`; never `null`. */
export function isValidOrigin(origin: string): boolean {
  if (origin === 'null' || origin.length > 2048) return false;
  if (origin.startsWith('http://') || origin.startsWith('https://')) {
    try {
      const u = new URL(origin);
      return u.origin === origin && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }
  return OTHER_ORIGIN.test(origin);
}

/** The web origin of an http(s) callback; native-app callbacks have none. */
export function originOfRedirect(uri: string): string | undefined {
  try {
    const u = new URL(uri);
    return u.protocol === 'https:' || u.protocol === 'http:'
      ? u.origin
      : undefined;
  } catch {
    return undefined;
  }
}

/** The CORS whitelist of one app: its cors_origins, or when empty the origins of its callbacks. */
export function allowedOriginsOf(app: {
  corsOrigins: readonly string[];
  redirectUris: readonly string[];
}): string[] {
  if (app.corsOrigins.length > 0) return [...new Set(app.corsOrigins)];
  const origins = app.redirectUris
    .map(originOfRedirect)
    .filter((o): o is string => o !== undefined);
  return [...new Set(origins)];
}

/** `redirect_uri` + `?` or `&` + `code=…[&state=…]`, both URL-encoded (docs/api.md §5). */
export function composeRedirectUrl(
  redirectUri: string,
  code: string,
  state?: string,
): string {
  const sep = redirectUri.includes('?') ? '&' : '?';
  const statePart =
    state === undefined ? '' : `&state=${encodeURIComponent(state)}`;
  return `${redirectUri}${sep}code=${encodeURIComponent(code)}${statePart}`;
}
