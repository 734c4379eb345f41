import { expect } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';

/** What the sign-in history and notice files share: the browsers, addresses and requests they use. */
const A = '/api/v1/auth';
export const BASE = 'https://id.example.com';
export const HOME = '203.0.113.7';
export const FIREFOX =
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
export const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1';
const NOTICE = '新设备登录提醒';

export interface Seen {
  at: number;
  ip: string;
  user_agent: string;
  method: string;
}

export function from(ip: string, ua: string) {
  return { remoteAddress: ip, headers: { 'user-agent': ua } };
}

/** Sign-ins and history reads against the app `current()` returns. */
export function signInRequests(current: () => TestApp) {
  async function login(
    u: TestUser,
    ip = HOME,
    ua = FIREFOX,
    extra: Record<string, unknown> = {},
  ) {
    const res = await current().app.inject({
      method: 'POST',
      url: `${A}/login`,
      payload: { username: u.username, password: u.password, ...extra },
      ...from(ip, ua),
    });
    return res;
  }

  async function signedIn(
    u: TestUser,
    ip = HOME,
    ua = FIREFOX,
  ): Promise<string> {
    const res = await login(u, ip, ua);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().access_token;
  }

  async function history(token: string): Promise<Seen[]> {
    const res = await current().get(`${A}/account/sign_ins`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.sign_ins;
  }

  /** The notices `u` received, counted once everything queued so far was sent. */
  async function notices(u: TestUser): Promise<number> {
    const t = current();
    await t.mailSent();
    return t.smtp.subjectsTo(u.email).filter((s) => s.includes(NOTICE)).length;
  }

  return { login, signedIn, history, notices };
}
