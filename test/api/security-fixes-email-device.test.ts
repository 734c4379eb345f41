import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  uniqueName,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';

/** Runs on SQLite and on PostgreSQL: each test reproduces one attack through the public interface. */
const AUTH = '/api/v1/auth';
let clock = Date.now();
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  owner = await t.register();
});
afterAll(async () => {
  await t.close();
});

describe('e-mail addresses compare on ASCII case only (docs/api.md §2)', () => {
  it('a KELVIN SIGN look-alike gets no code for kate, and cannot reset her password', async () => {
    const name = uniqueName('kate').toLowerCase();
    const kate = await t.register({
      username: name,
      email: `k${name}@example.com`,
    });
    const lookAlike = `\u212a${name}@example.com`;
    clock += 61_000;
    const sent = await t.post(`${AUTH}/send_code`, {
      email: lookAlike,
      purpose: 'reset_password',
    });
    expect(sent.statusCode).toBe(200);
    await t.mailSent();
    expect(t.smtp.countTo(lookAlike)).toBe(0);
    expect(t.smtp.countTo(kate.email)).toBe(0);
    const reset = await t.post(`${AUTH}/reset_password`, {
      email: lookAlike,
      code: '123456',
      new_password: 'attacker password!',
    });
    expect(reset.statusCode).toBe(400);
    expect(
      (
        await t.post(`${AUTH}/login`, {
          username: kate.username,
          password: kate.password,
        })
      ).statusCode,
    ).toBe(200);
    // A login by e-mail with the look-alike does not reach kate either.
    expect(
      (
        await t.post(`${AUTH}/login`, {
          username: lookAlike,
          password: kate.password,
        })
      ).statusCode,
    ).toBe(401);
    // The look-alike is a different address: it can hold its own account, apart from kate's.
    const other = await t.post(`${AUTH}/register`, {
      username: uniqueName('kelvin'),
      password: 'another password!',
      email: lookAlike,
    });
    expect(other.statusCode, other.body).toBe(200);
    expect(
      (
        await t.post(`${AUTH}/login`, {
          username: `k${name}@example.com`,
          password: kate.password,
        })
      ).json().user.username,
    ).toBe(kate.username);
  });

  it('ASCII case is still ignored, and codes go to the address stored on the account', async () => {
    const u = await t.register({ email: `${uniqueName('mixed')}@Example.com` });
    clock += 61_000;
    const typed = u.email.toUpperCase();
    expect(
      (await t.post(`${AUTH}/send_code`, { email: typed, purpose: 'login' }))
        .statusCode,
    ).toBe(200);
    const code = await t.smtp.codeFor(u.email);
    const mail = t.smtp.messages.at(-1)!;
    expect(mail.to).toEqual([u.email.toLowerCase()]);
    // Sent to the stored text (lower-case local part), not to the upper-case one typed.
    expect(mail.raw).toMatch(new RegExp(`^To: ${u.email.split('@')[0]}@`, 'm'));
    expect(
      (await t.post(`${AUTH}/login_by_code`, { email: typed, code }))
        .statusCode,
    ).toBe(200);
  });
});

describe("/docs carries the pages' headers (docs/api.md §11)", () => {
  it.each(['/docs', '/docs/', '/docs/json', '/docs/static/index.html'])(
    '%s',
    async (path) => {
      const res = await t.get(path);
      if (res.statusCode >= 300 && res.statusCode < 400)
        expect(res.headers.location).toBeTruthy();
      expect(res.headers['content-security-policy']).toContain(
        "frame-ancestors 'none'",
      );
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );
});

describe('device/inspect tells who asks before approval (docs/api.md §11, RFC 8628 §5.4)', () => {
  it('names the app, says whether it is the center itself, and when it started', async () => {
    const u = await t.register();
    const center = (await t.post(`${AUTH}/device/start`, {})).json().data;
    const res = await t.post(
      `${AUTH}/device/inspect`,
      { user_code: center.user_code },
      u.token,
    );
    expect(res.json()).toEqual({
      ok: true,
      data: {
        client_id: 'account-center',
        display_name: '账号中心',
        first_party: true,
        created_at: Math.floor(clock / 1000),
      },
    });
    const created = await t.post(
      `${AUTH}/apps`,
      {
        display_name: '星海启动器',
        redirect_uris: ['com.example.launcher:/cb'],
        client_type: 'public',
      },
      owner.token,
    );
    const clientId = created.json().data.client_id;
    const game = (
      await t.post(`${AUTH}/device/start`, { client_id: clientId })
    ).json().data;
    expect(
      (
        await t.post(
          `${AUTH}/device/inspect`,
          { user_code: game.user_code },
          u.token,
        )
      ).json().data,
    ).toMatchObject({
      client_id: clientId,
      display_name: '星海启动器',
      first_party: false,
    });
    // Inspecting decides nothing: the device still waits for the explicit approval.
    expect(
      (
        await t.post(`${AUTH}/device/poll`, { device_code: game.device_code })
      ).json().error,
    ).toBe('authorization_pending');
    const wrong = await t.post(
      `${AUTH}/device/inspect`,
      { user_code: 'abcdef' },
      u.token,
    );
    expect([wrong.statusCode, wrong.json()]).toEqual([
      400,
      { ok: false, msg: '设备码无效或已过期' },
    ]);
    const thirdParty = (await t.post(`${AUTH}/game_token`, {}, u.token)).json()
      .access_token;
    expect(
      (
        await t.post(
          `${AUTH}/device/inspect`,
          { user_code: game.user_code },
          thirdParty,
        )
      ).statusCode,
    ).toBe(403);
  });
});
