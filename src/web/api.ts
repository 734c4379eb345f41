/** Talks to /api/v1/auth; every failure surfaces as an ApiError carrying the server's msg. */
import type { MeData } from '../domain/wire.js';

const TOKEN_KEY = 'account_center_token';
const PREFIX = '/api/v1/auth/';

export class ApiError extends Error {
  constructor(readonly status: number, readonly msg: string, readonly body: Record<string, unknown> = {}) {
    super(msg);
  }
}

export interface TokenEnvelope {
  ok: true;
  access_token: string;
  token_type: string;
  expires_in: number;
  user: { uid: number; username: string; display_name: string; email: string; roles: string[] };
}

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

const NETWORK_MSG = '网络错误，请检查连接后重试';

/** Calls an endpoint; resolves with the whole success body, rejects with ApiError. */
export async function call<T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown, withToken = true): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = withToken ? getToken() : null;
  if (token) headers.authorization = `Bearer ${token}`;
  if (method === 'POST') headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(PREFIX + path, {
      method, headers, credentials: 'omit', cache: 'no-store',
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch {
    throw new ApiError(0, NETWORK_MSG);
  }
  let json: Record<string, unknown>;
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    throw new ApiError(res.status, `服务器返回异常（HTTP ${res.status}）`);
  }
  if (!res.ok || json.ok !== true) {
    const msg = typeof json.msg === 'string' ? json.msg : `请求失败（HTTP ${res.status}）`;
    throw new ApiError(res.status, msg, json);
  }
  return json as T;
}

/** A data endpoint: resolves with `data`. */
export async function data<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
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

/** Where to go after signing in: only paths on this site, never another origin. */
export function safeNext(raw: string | null, fallback = '/account'): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  try {
    const url = new URL(raw, location.origin);
    return url.origin === location.origin ? url.pathname + url.search : fallback;
  } catch {
    return fallback;
  }
}

/** The sign-in page for coming back here afterwards. */
export function loginUrl(back = location.pathname + location.search): string {
  return `/login?next=${encodeURIComponent(back)}`;
}

/** The signed-in user as `me` describes them. */
export type Me = MeData;
