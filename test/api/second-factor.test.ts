import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';

const A = '/api/v1/auth';
const NEED = refusal('需要两步验证');
const REAUTH = refusal('需要重新验证身份');
const WRONG = refusal('两步验证码错误');
const STEP_MS = 30_000;

let t: TestApp;
// A moving clock: every test steps it forward, so the codes of one test never collide with another's.
let clock = Date.UTC(2030, 0, 1, 12, 0, 0);
const codeAt = (secret: string, ms = clock) =>
  generate({ secret, epoch: Math.floor(ms / 1000) });
beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
});
afterAll(async () => {
  await t.close();
});

/** A registered user with the authenticator on: its secret and recovery codes. */
async function enrolled(
  app = t,
): Promise<TestUser & { secret: string; recovery: string[] }> {
  const u = await app.register();
  const setup = await app.post(
    `${A}/account/totp/setup`,
    { current_password: u.password },
    u.token,
  );
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json().data;
  const on = await app.post(
    `${A}/account/totp/enable`,
    { code: await codeAt(secret) },
    u.token,
  );
  expect(on.statusCode).toBe(200);
  clock += STEP_MS;
  return { ...u, secret, recovery: on.json().data.recovery_codes };
}

const login = (u: TestUser, extra: Record<string, unknown> = {}, app = t) =>
  app.post(`${A}/login`, {
    username: u.username,
    password: u.password,
    ...extra,
  });

describe('authenticator enrolment', () => {
  it('sets up a secret with a local QR code, confirms it with one code, shows 10 recovery codes once', async () => {
    const u = await t.register();
    const before = await t.get(`${A}/account/second_factor`, u.token);
    expect(before.json()).toEqual({
      ok: true,
      data: { totp: false, recovery_codes_left: 0, passkeys: [] },
    });
    const setup = (
      await t.post(
        `${A}/account/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(setup.secret).toMatch(/^[A-Z2-7]{16,}$/);
    const issuer = encodeURIComponent('账号中心');
    expect(setup.otpauth_url).toBe(
      `otpauth://totp/${issuer}:${u.username}?secret=${setup.secret}&issuer=${issuer}`,
    );
    expect(setup.qr).toMatch(/^data:image\/png;base64,/);
    // Not on until confirmed: sign-in unchanged.
    expect((await login(u)).statusCode).toBe(200);
    expect(
      failure(
        await t.post(`${A}/account/totp/enable`, { code: '000000' }, u.token),
      ),
    ).toEqual([400, WRONG]);
    const on = await t.post(
      `${A}/account/totp/enable`,
      { code: await codeAt(setup.secret) },
      u.token,
    );
    const codes: string[] = on.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(
      (await t.get(`${A}/account/second_factor`, u.token)).json().data,
    ).toEqual({ totp: true, recovery_codes_left: 10, passkeys: [] });
    // The grant of the set-up was used up by the enable.
    expect(
      failure(
        await t.post(
          `${A}/account/totp/enable`,
          { code: await codeAt(setup.secret) },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    clock += STEP_MS;
    expect(
      failure(
        await t.post(
          `${A}/account/totp/setup`,
          { current_password: u.password, otp: await codeAt(setup.secret) },
          u.token,
        ),
      ),
    ).toEqual([409, refusal('两步验证已开启')]);
  });

  it('refuses enable before setup and answers bad bodies with 400', async () => {
    const u = await t.register();
    // Only a set-up in this session, with the password, leads to enable.
    expect(
      failure(
        await t.post(`${A}/account/totp/enable`, { code: '123456' }, u.token),
      ),
    ).toEqual([401, REAUTH]);
    expect(
      failure(
        await t.post(`${A}/account/totp/enable`, { code: 123456 }, u.token),
      ),
    ).toEqual([400, refusal('参数错误：code')]);
    expect(
      failure(await t.post(`${A}/account/totp/enable`, {}, u.token)),
    ).toEqual([400, refusal('参数错误：code')]);
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
          otp: 5,
        }),
      ),
    ).toEqual([400, refusal('参数错误：otp')]);
    expect((await t.post(`${A}/account/totp/setup`, {})).statusCode).toBe(401);
  });
});

describe('seed login with a second factor', () => {
  it('leaves users without a second factor unchanged, with or without otp', async () => {
    const u = await t.register();
    const plain = await login(u);
    const withOtp = await login(u, { otp: '123456' });
    for (const res of [plain, withOtp]) {
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual([
        'access_token',
        'expires_in',
        'ok',
        'token_type',
        'user',
      ]);
    }
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: 'wrong password',
        }),
      ),
    ).toEqual([401, refusal('用户名或密码错误')]);
  });

  it('asks for the second factor only after the right password', async () => {
    const u = await enrolled();
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: 'wrong password',
        }),
      ),
    ).toEqual([401, refusal('用户名或密码错误')]);
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: 'wrong password',
          otp: await codeAt(u.secret),
        }),
      ),
    ).toEqual([401, refusal('用户名或密码错误')]);
    expect(failure(await login(u))).toEqual([401, NEED]);
    expect(failure(await login(u, { otp: '000000' }))).toEqual([401, WRONG]);
    expect(failure(await login(u, { otp: 'not a code' }))).toEqual([
      401,
      WRONG,
    ]);
    const ok = await login(u, { otp: await codeAt(u.secret) });
    expect(ok.statusCode).toBe(200);
    expect(
      (await t.get(`${A}/me`, ok.json().access_token)).json().data.username,
    ).toBe(u.username);
  });

  it('accepts one step either side, never a code of a step already used', async () => {
    const u = await enrolled();
    clock += 10 * STEP_MS;
    const at = (steps: number) => codeAt(u.secret, clock + steps * STEP_MS);
    expect(failure(await login(u, { otp: await at(-2) }))).toEqual([
      401,
      WRONG,
    ]);
    expect((await login(u, { otp: await at(-1) })).statusCode).toBe(200);
    expect(failure(await login(u, { otp: await at(-1) }))).toEqual([
      401,
      WRONG,
    ]);
    expect((await login(u, { otp: await at(0) })).statusCode).toBe(200);
    expect(failure(await login(u, { otp: await at(0) }))).toEqual([401, WRONG]);
    expect((await login(u, { otp: await at(1) })).statusCode).toBe(200);
    // After the step ahead was used, the current one is older: refused too.
    expect(failure(await login(u, { otp: await at(0) }))).toEqual([401, WRONG]);
    expect(failure(await login(u, { otp: await at(2) }))).toEqual([401, WRONG]);
    clock += 3 * STEP_MS;
    expect((await login(u, { otp: await codeAt(u.secret) })).statusCode).toBe(
      200,
    );
  });

  it('takes each recovery code once, in any case and with or without the dash', async () => {
    const u = await enrolled();
    const [first, second] = u.recovery as [string, string];
    expect((await login(u, { otp: first })).statusCode).toBe(200);
    expect(failure(await login(u, { otp: first }))).toEqual([401, WRONG]);
    expect(
      (await login(u, { otp: ` ${second.replace('-', '').toUpperCase()} ` }))
        .statusCode,
    ).toBe(200);
    const token = (await login(u, { otp: await codeAt(u.secret) })).json()
      .access_token;
    expect(
      (await t.get(`${A}/account/second_factor`, token)).json().data
        .recovery_codes_left,
    ).toBe(8);
  });

  it('login_by_code needs the second factor too; the e-mail code waits for it', async () => {
    const u = await enrolled();
    await t.post(`${A}/send_code`, { email: u.email, purpose: 'login' });
    const code = await t.smtp.codeFor(u.email);
    expect(
      failure(
        await t.post(`${A}/login_by_code`, { email: u.email, code: '000000' }),
      ),
    ).toEqual([400, refusal('验证码错误或已过期')]);
    expect(
      failure(await t.post(`${A}/login_by_code`, { email: u.email, code })),
    ).toEqual([401, NEED]);
    expect(
      failure(
        await t.post(`${A}/login_by_code`, {
          email: u.email,
          code,
          otp: '000000',
        }),
      ),
    ).toEqual([401, WRONG]);
    expect(
      (
        await t.post(`${A}/login_by_code`, {
          email: u.email,
          code,
          otp: await codeAt(u.secret),
        })
      ).statusCode,
    ).toBe(200);
    clock += STEP_MS;
    expect(
      failure(
        await t.post(`${A}/login_by_code`, {
          email: u.email,
          code,
          otp: await codeAt(u.secret),
        }),
      ),
    ).toEqual([400, refusal('验证码错误或已过期')]);
  });

  it('counts otp tries per account and address: the sixth wrong one is 429, and so is a right one then', async () => {
    const u = await enrolled();
    for (let i = 0; i < 5; i++)
      expect(failure(await login(u, { otp: '000000' }))).toEqual([401, WRONG]);
    expect(failure(await login(u, { otp: '000000' }))).toEqual([
      429,
      refusal('请求过于频繁，请稍后再试'),
    ]);
    expect((await login(u, { otp: await codeAt(u.secret) })).statusCode).toBe(
      429,
    );
    // From another address the pair counter is fresh.
    const other = await t.app.inject({
      method: 'POST',
      url: `${A}/login`,
      remoteAddress: '10.1.2.3',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        username: u.username,
        password: u.password,
        otp: await codeAt(u.secret),
      }),
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('API reference', () => {
  it('/docs shows the optional otp field and the second-factor routes', async () => {
    const doc = (await t.get('/docs/json')).json();
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
    clock += STEP_MS;
    expect(
      failure(
        await t.post(
          `${A}/account/totp/disable`,
          { password: 'wrong password', code: await codeAt(u.secret) },
          token,
        ),
      ),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      failure(
        await t.post(
          `${A}/account/totp/disable`,
          { password: u.password, code: '000000' },
          token,
        ),
      ),
    ).toEqual([401, refusal('需要重新验证身份')]);
    expect(
      (
        await t.post(
          `${A}/account/totp/disable`,
          { password: u.password, code: await codeAt(u.secret) },
          token,
        )
      ).statusCode,
    ).toBe(200);
    expect((await login(u)).statusCode).toBe(200);
    expect(
      failure(
        await t.post(
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
    const fresh = await t.post(
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
    await t.post(`${A}/send_code`, {
      email: u.email,
      purpose: 'reset_password',
    });
    const code = await t.smtp.codeFor(u.email);
    const reset = await t.post(`${A}/reset_password`, {
      email: u.email,
      code,
      new_password: 'another password 1',
    });
    expect(reset.statusCode).toBe(200);
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: 'another password 1',
        }),
      ),
    ).toEqual([401, NEED]);
  });

  it("an admin removes a locked-out user's second factor, audited", async () => {
    const u = await enrolled();
    const admin = await t.admin();
    const url = `${A}/admin/users/second_factor/remove`;
    expect(
      failure(await t.post(url, { username: u.username }, u.token)),
    ).toEqual([403, refusal('需要管理员权限')]);
    expect(
      failure(await t.post(url, { username: 'nobody_here' }, admin.token)),
    ).toEqual([404, refusal('用户不存在')]);
    const res = await t.post(url, { username: u.username }, admin.token);
    expect(res.json()).toEqual({
      ok: true,
      data: { totp_removed: true, passkeys_removed: 0 },
    });
    expect((await login(u)).statusCode).toBe(200);
    const audit = await t.get(
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
      { now: () => clock },
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
      { now: () => clock },
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
