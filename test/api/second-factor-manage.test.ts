import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
} from '../helpers/app.js';
import { STEP_MS, secondFactorApp } from './second-factor-setup.js';

const A = '/api/v1/auth';
const NEED = refusal('需要两步验证');
const WRONG = refusal('两步验证码错误');

const { env, codeAt, enrolled, login } = secondFactorApp();

describe('API reference', () => {
  it('/docs shows the optional otp field and the second-factor routes', async () => {
    const doc = (await env.t.get('/docs/json')).json();
    const bodyOf = (path: string) =>
      doc.paths[path].post.requestBody.content['application/json'].schema;
    for (const path of [`${A}/login`, `${A}/login_by_code`]) {
      expect(bodyOf(path).properties.otp).toMatchObject({ type: 'string' });
      expect(bodyOf(path).required).not.toContain('otp');
    }
    for (const path of [
      'account/totp/setup',
      'account/totp/enable',
      'account/totp/disable',
      'account/recovery_codes',
      'passkey/login',
      'admin/users/second_factor/remove',
    ]) {
      expect(doc.paths[`${A}/${path}`]?.post, path).toBeDefined();
    }
  });
});

describe('turning it off, new recovery codes, reset, admin removal', () => {
  it('turns off with password and code; sign-in is plain again', async () => {
    const u = await enrolled();
    const token = (await login(u, { otp: await codeAt(u.secret) })).json()
      .access_token;
    env.clock += STEP_MS;
    expect(
      failure(
        await env.t.post(
          `${A}/account/totp/disable`,
          { password: 'wrong password', code: await codeAt(u.secret) },
          token,
        ),
      ),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      failure(
        await env.t.post(
          `${A}/account/totp/disable`,
          { password: u.password, code: '000000' },
          token,
        ),
      ),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      (
        await env.t.post(
          `${A}/account/totp/disable`,
          { password: u.password, code: await codeAt(u.secret) },
          token,
        )
      ).statusCode,
    ).toBe(200);
    expect((await login(u)).statusCode).toBe(200);
    expect(
      failure(
        await env.t.post(
          `${A}/account/totp/disable`,
          { password: u.password, code: '000000' },
          token,
        ),
      ),
    ).toEqual([400, refusal('两步验证未开启')]);
  });

  it('regenerates recovery codes: the old ones stop working', async () => {
    const u = await enrolled();
    const token = (await login(u, { otp: u.recovery[0] })).json().access_token;
    const fresh = await env.t.post(
      `${A}/account/recovery_codes`,
      { current_password: u.password, code: await codeAt(u.secret) },
      token,
    );
    const codes: string[] = fresh.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(failure(await login(u, { otp: u.recovery[1] }))).toEqual([
      401,
      WRONG,
    ]);
    expect((await login(u, { otp: codes[0] })).statusCode).toBe(200);
  });

  it('reset_password keeps the second factor', async () => {
    const u = await enrolled();
    await env.t.post(`${A}/send_code`, {
      email: u.email,
      purpose: 'reset_password',
    });
    const code = await env.t.smtp.codeFor(u.email);
    const reset = await env.t.post(`${A}/reset_password`, {
      email: u.email,
      code,
      new_password: 'another password 1',
    });
    expect(reset.statusCode).toBe(200);
    expect(
      failure(
        await env.t.post(`${A}/login`, {
          username: u.username,
          password: 'another password 1',
        }),
      ),
    ).toEqual([401, NEED]);
  });

  it("an admin removes a locked-out user's second factor, audited", async () => {
    const u = await enrolled();
    const admin = await env.t.admin();
    const url = `${A}/admin/users/second_factor/remove`;
    expect(
      failure(await env.t.post(url, { username: u.username }, u.token)),
    ).toEqual([403, refusal('需要管理员权限')]);
    expect(
      failure(await env.t.post(url, { username: 'nobody_here' }, admin.token)),
    ).toEqual([404, refusal('用户不存在')]);
    const res = await env.t.post(url, { username: u.username }, admin.token);
    expect(res.json()).toEqual({
      ok: true,
      data: { totp_removed: true, passkeys_removed: 0 },
    });
    expect((await login(u)).statusCode).toBe(200);
    const audit = await env.t.get(
      `${A}/admin/audit?action=second_factor.admin_remove&target=${u.username}`,
      admin.token,
    );
    expect(audit.json().data.entries).toEqual([
      expect.objectContaining({
        actor: admin.username,
        target: u.username,
        detail: { totp: true, passkeys: 0 },
      }),
    ]);
  });
});

describe('under parallel requests', () => {
  let p: TestApp;
  // Password limits out of the way, so only the second factor's rules are measured.
  beforeAll(async () => {
    p = await createTestApp(
      { LIMIT_LOGIN_PAIR: '1000/900', LIMIT_LOGIN_ACCOUNT: '1000/900' },
      { now: () => env.clock },
    );
  });
  afterAll(async () => {
    await p.close();
  });

  it('60 parallel wrong codes get exactly 5 checks; the rest are 429', async () => {
    const u = await enrolled(p);
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => login(u, { otp: '000000' }, p)),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(55);
  });

  it('one valid code sent 20 times at once signs in exactly once', async () => {
    // Every try reaches the check here: the single use is the database's conditional UPDATE.
    const q = await createTestApp(
      {
        LIMIT_LOGIN_PAIR: '1000/900',
        LIMIT_LOGIN_ACCOUNT: '1000/900',
        LIMIT_OTP_PAIR: '1000/900',
        LIMIT_OTP_ACCOUNT: '1000/900',
      },
      { now: () => env.clock },
    );
    try {
      const u = await enrolled(q);
      const otp = await codeAt(u.secret);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => login(u, { otp }, q)),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(answers.filter((r) => r.statusCode !== 200).map(failure)).toEqual(
        Array(19).fill([401, WRONG]),
      );
    } finally {
      await q.close();
    }
  });
});
