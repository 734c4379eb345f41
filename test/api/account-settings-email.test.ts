import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';
import { jwtClaims } from '../helpers/jwt.js';
import { accountSessions } from './account-settings-setup.js';

const A = '/api/v1/auth';
const ACC = `${A}/account`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const { login } = accountSessions(() => t);
describe('change e-mail', () => {
  it('a code to the new address confirms it; the old address gets a notice; email_verified follows', async () => {
    const u = await t.register();
    const next = `${uniqueName('new')}@Example.org`;
    const sent = await t.post(
      `${ACC}/email/send_code`,
      { email: next, current_password: u.password },
      u.token,
    );
    expect(sent.json()).toEqual({
      ok: true,
      data: { expires_in: 600, resend_after: 60 },
    });
    const code = await t.smtp.codeFor(next);
    // The code works only here: neither login_by_code nor send_code know the purpose.
    expect(
      failure(
        await t.post(`${A}/send_code`, {
          email: next,
          purpose: 'change_email',
        }),
      ),
    ).toEqual([400, refusal('参数错误：purpose')]);
    const before = t.smtp.countTo(u.email);
    const res = await t.post(`${ACC}/email`, { email: next, code }, u.token);
    expect(res.json()).toEqual({
      ok: true,
      data: { email: next, email_verified: true },
    });
    await waitFor(
      'the notice to the old address',
      5000,
      () => t.smtp.countTo(u.email) > before,
    );
    const me = (await t.get(`${A}/me`, u.token)).json().data;
    expect(me).toMatchObject({ email: next, email_verified: true });
    expect(
      (
        await t.post(`${A}/login`, {
          username: next.toUpperCase(),
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
    // The change used up the grant of the send: nothing more happens without a new proof.
    expect(
      failure(await t.post(`${ACC}/email`, { email: next, code }, u.token)),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      (
        await t.runtime.storage.audit.list(
          { action: 'user.email_change', target: u.username },
          0,
          5,
        )
      ).total,
    ).toBe(1);
  });

  it('refuses a taken, the same, a malformed address, and a wrong code', async () => {
    const u = await t.register();
    const v = await t.register();
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: v.email.toUpperCase(), current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([409, refusal('邮箱已被注册')]);
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: u.email.toUpperCase(), current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([400, refusal('新邮箱与当前邮箱相同')]);
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: 'nope', current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([400, refusal('邮箱格式不正确')]);
    const next = `${uniqueName('n')}@example.org`;
    await t.post(
      `${ACC}/email/send_code`,
      { email: next, current_password: u.password },
      u.token,
    );
    const code = await t.smtp.codeFor(next);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(
      failure(
        await t.post(`${ACC}/email`, { email: next, code: wrong }, u.token),
      ),
    ).toEqual([400, refusal('验证码错误或已过期')]);
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: next, current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([429, refusal('请求过于频繁，请稍后再试')]);
  });
});

describe('delete account', () => {
  it('needs the password; frees the username and e-mail; ends every token; disables its apps; audit row names only the id', async () => {
    const u = await t.register();
    const app = await t.post(
      `${A}/apps`,
      { display_name: 'Mine', redirect_uris: ['https://mine.example/cb'] },
      u.token,
    );
    expect(app.statusCode).toBe(200);
    const clientId = app.json().data.client_id as string;
    const other = await login(u);
    expect(
      failure(
        await t.post(`${ACC}/delete`, { password: 'wrong password' }, u.token),
      ),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      (await t.post(`${ACC}/delete`, { password: u.password }, u.token)).json(),
    ).toEqual({ ok: true, data: {} });
    for (const tok of [u.token, other])
      expect((await t.get(`${A}/me`, tok)).statusCode).not.toBe(200);
    expect(
      (
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(401);
    expect((await t.runtime.storage.apps.findById(clientId))?.status).toBe(
      'disabled',
    );
    const again = await t.register({ username: u.username, email: u.email });
    expect(again.uid).not.toBe(u.uid);
    const row = (
      await t.runtime.storage.audit.list({ action: 'user.delete' }, 0, 50)
    ).entries.find((e) => e.target === `uid:${u.uid}`);
    expect(row).toMatchObject({ actor: `uid:${u.uid}`, ip: null, detail: {} });
    expect(JSON.stringify(row)).not.toContain(u.username);
    expect(
      await t.runtime.storage.sessions.listLive(u.uid, Date.now(), 10),
    ).toEqual([]);
    expect(
      await t.runtime.storage.sessions.findById(jwtClaims(other).sid),
    ).toBeUndefined();
  });
});

describe('contract', () => {
  it('every new endpoint is in the OpenAPI document at /docs; bodies over 64 KiB get 413', async () => {
    const doc = (await t.get('/docs/json')).json();
    for (const path of [
      'profile',
      'password',
      'email/send_code',
      'email',
      'sessions',
      'sessions/end',
      'sessions/end_others',
      'app_suspensions',
      'delete',
    ]) {
      expect(Object.keys(doc.paths), path).toContain(`${ACC}/${path}`);
    }
    for (const path of [
      'users/detail',
      'users/sessions/end',
      'users/force_reset',
      'apps',
      'apps/detail',
      'apps/status',
      'audit',
      'audit/export',
      'dashboard',
    ]) {
      expect(Object.keys(doc.paths), path).toContain(`${A}/admin/${path}`);
    }
    const u = await t.register();
    expect(
      failure(
        await t.post(
          `${ACC}/profile`,
          { display_name: 'x'.repeat(70_000) },
          u.token,
        ),
      ),
    ).toEqual([413, refusal('请求体过大')]);
  });
});
