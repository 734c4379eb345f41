import { UpstreamError } from './types.js';

/** A provider that does not answer within this is reported as unreachable. */
export const UPSTREAM_TIMEOUT_MS = 10_000;
/** GitHub's API refuses requests without a User-Agent; every provider gets the same one. */
const USER_AGENT = 'account-center';

/**
 * One request to a provider; the body as text. Network failures and timeouts are `network`,
 * any status other than 2xx is `provider`. No redirect is followed: the endpoints are configured.
 */
export async function upstreamFetch(
  url: URL | string,
  init: RequestInit = {},
): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      headers: {
        'user-agent': USER_AGENT,
        accept: 'application/json',
        ...(init.headers as Record<string, string> | undefined),
      },
    });
  } catch (err) {
    throw new UpstreamError(
      'network',
      `${new URL(url).host}: ${(err as Error).message}`,
    );
  }
  const text = await res.text().catch(() => '');
  if (res.status < 200 || res.status > 299)
    throw new UpstreamError(
      'provider',
      `${new URL(url).host} answered HTTP ${res.status}`,
    );
  return text;
}

/**
 * The query of a provider's answer, one value per name; undefined when any name appears more
 * than once. A reader of the first value and a reader of the last (URLSearchParams.get and a
 * copy made with set, a provider's own parser) would otherwise check one value and use
 * another: every check and every request to the provider takes its value from this one map.
 */
export function singleValued(
  params: URLSearchParams,
): Map<string, string> | undefined {
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    if (values.has(name)) return undefined;
    values.set(name, value);
  }
  return values;
}

/** A JSON object from a body (WeChat answers JSON as text/plain; QQ may wrap it as `callback( … );`). */
export function jsonObject(
  text: string,
  what: string,
): Record<string, unknown> {
  const unwrapped = text
    .trim()
    .replace(/^callback\(\s*/, '')
    .replace(/\s*\)\s*;?\s*$/, '');
  try {
    const value = JSON.parse(unwrapped) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new UpstreamError('provider', `${what}: not a JSON object`);
}

export async function getJson(
  url: URL | string,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const text = await upstreamFetch(url, { headers });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UpstreamError('provider', `${new URL(url).host}: not JSON`);
  }
}

/** A string, or a number as its decimal text (ids are either, depending on the provider). */
export function idText(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '' && v.length <= 255) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

export const optionalText = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** An avatar shown on /account: https only (the pages' CSP allows no other images from elsewhere). */
export function avatarUrl(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > 1024) return undefined;
  const upgraded = v.replace(/^http:\/\//i, 'https://');
  return /^https:\/\/[^\s"'<>]+$/i.test(upgraded) ? upgraded : undefined;
}

/** A URL with these query parameters added. */
export function withParams(base: string, params: Record<string, string>): URL {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

/**
 * The code an authorization-code callback carries. A refusal comes back with the state and no
 * code: the person did not allow the sign-in.
 */
export function grantedCode(callback: URL): string {
  const code = callback.searchParams.get('code');
  if (!code)
    throw new UpstreamError(
      'denied',
      'no code: the person did not allow the sign-in',
    );
  return code;
}
