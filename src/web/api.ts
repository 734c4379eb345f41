/** Talks to /api/v1/auth; every failure surfaces as an ApiError carrying the server's msg. */
import { safeReturnPath } from '../platform/http/return-path.js';
import type { MeData, TokenEnvelope } from './contracts.js';
import { t } from './i18n.js';
import { formatTime } from './dom.js';
import { readable } from './field-labels.js';

const TOKEN_KEY = 'account_center_token';
const PREFIX = '/api/v1/auth/';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    readonly body: Record<string, unknown> = {},
    /** A 429's `Retry-After`: whole seconds until the limit lets this client in again. */
    readonly retryAfterS?: number,
  ) {
    super(msg);
  }
}

/**
 * The reason and end of a ban, which the service sends beside `账号已被封禁` to the person who
 * just signed in (headers `x-ban-reason`, `x-ban-until`), as the sentence the pages show.
 */
function withBanTerms(msg: string, res: Response): string {
  const reason = res.headers.get('x-ban-reason');
  if (res.status !== 403 || reason === null) return msg;
  const until = Number(res.headers.get('x-ban-until') ?? NaN);
  let text = '';
  try {
    text = decodeURIComponent(reason);
  } catch {
    /* an unreadable reason is left out */
  }
  const parts = [
    text && t('ban.reason', { reason: text }),
    Number.isFinite(until) && until > 0
      ? t('ban.until', { time: formatTime(until) })
      : t('ban.forever'),
  ].filter(Boolean);
  return (
    readable(msg) + t('ban.terms', { terms: parts.join(t('ban.separator')) })
  );
}

/** `Retry-After` in seconds (the service never sends the date form); absent or unreadable: undefined. */
function retryAfterOf(res: Response): number | undefined {
  const value = res.headers.get('retry-after');
  return value !== null && /^\d+$/.test(value.trim())
    ? Number(value.trim())
    : undefined;
}

export type { TokenEnvelope };

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/**
 * Sends one request and reads the `{ ok, … }` envelope: resolves with the whole success body,
 * rejects with ApiError carrying the server's msg (or a network / malformed-answer text).
 */
export async function request<T>(url: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { cache: 'no-store', ...init });
  } catch {
    throw new ApiError(0, t('error.network'));
  }
  let json: Record<string, unknown>;
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    throw new ApiError(
      res.status,
      t('error.badAnswer', { status: res.status }),
    );
  }
  if (!res.ok || json.ok !== true) {
    const msg =
      typeof json.msg === 'string'
        ? withBanTerms(json.msg, res)
        : t('error.failed', { status: res.status });
    throw new ApiError(
      res.status,
      msg,
      json,
      res.status === 429 ? retryAfterOf(res) : undefined,
    );
  }
  return json as T;
}

/** Calls an endpoint of the v1 API; never sends cookies. */
export function call<T = Record<string, unknown>>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  withToken = true,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = withToken ? getToken() : null;
  if (token) headers.authorization = `Bearer ${token}`;
  if (method === 'POST') headers['content-type'] = 'application/json';
  return request<T>(PREFIX + path, {
    method,
    headers,
    credentials: 'omit',
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
}

/** A data endpoint: resolves with `data`. */
export async function data<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await call<{ data: T }>(method, path, body);
  return res.data;
}

/** The signed-in user, or null when there is no usable token (a stale one is dropped). */
export async function currentUser(): Promise<Me | null> {
  if (!getToken()) return null;
  try {
    return await data<Me>('GET', 'me');
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      clearToken();
      return null;
    }
    throw err;
  }
}

/** Where to go after signing in: only paths on this site, never another origin (features/apps/redirect-uris.ts). */
export function safeNext(raw: string | null, fallback = '/account'): string {
  return safeReturnPath(raw, location.origin, fallback);
}

/** The sign-in page for coming back here afterwards. */
export function loginUrl(back = location.pathname + location.search): string {
  return `/login?next=${encodeURIComponent(back)}`;
}

/** The signed-in user as `me` describes them. */
export type Me = MeData;
