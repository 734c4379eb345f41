import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';

const A = '/api/v1/auth';
const BASE = 'https://id.example.com';
const FAILED = refusal('通行密钥验证失败');

let t: TestApp;
let clock = Date.UTC(2030, 5, 1, 8, 0, 0);
beforeAll(async () => {
  t = await createTestApp({ BASE_URL: BASE }, { now: () => clock });
});
afterAll(async () => {
  await t.close();
});

async function withPasskey(
  app = t,
): Promise<TestUser & { device: SoftAuthenticator }> {
  const u = await app.register();
  const device = new SoftAuthenticator(BASE);
  const options = (
    await app.post(
      `${A}/account/passkeys/options`,
      { current_password: u.password },
      u.token,
    )
  ).json().data;
  const res = await app.post(
    `${A}/account/passkeys/register`,
    { name: '我的电脑', response: device.create(options) },
    u.token,
  );
  expect(res.statusCode).toBe(200);
  return { ...u, device };
}

const loginOptions = async (app = t) =>
  (await app.post(`${A}/passkey/options`, {})).json().data;

describe('passkey sign-in', () => {
  it('signs in without a user name, with the login envelope; counts as both factors', async () => {
    const u = await withPasskey();
    // Turn the authenticator app on as well: a passkey sign-in asks no code.
    const setup = (
      await t.post(
        `${A}/account/totp/setup`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    await t.post(
      `${A}/account/totp/enable`,
      {
        code: await generate({
          secret: setup.secret,
          epoch: Math.floor(clock / 1000),
        }),
      },
      u.token,
    );
    expect(
      failure(
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        }),
      ),
    ).toEqual([401, refusal('需要两步验证')]);

    const answer = u.device.get(await loginOptions());
    const res = await t.post(`${A}/passkey/login`, { response: answer });
    expect(res.json()).toEqual({
      ok: true,
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 604800,
      user: {
        uid: u.uid,
        username: u.username,
        display_name: u.username,
        email: u.email,
        roles: ['player'],
      },
    });
    expect(
      (await t.get(`${A}/me`, res.json().access_token)).json().data.username,
    ).toBe(u.username);
    const listed = (
      await t.get(`${A}/account/second_factor`, res.json().access_token)
    ).json().data.passkeys;
    expect(listed[0].last_used_at).toBe(Math.floor(clock / 1000));
    // Single use: the same answer again is refused.
    expect(
      failure(await t.post(`${A}/passkey/login`, { response: answer })),
    ).toEqual([400, FAILED]);
  });

  it('refuses a stale challenge, a registration challenge, and a deleted passkey', async () => {
    const u = await withPasskey();
    const stale = await loginOptions();
    clock += 5 * 60_000 + 1;
    expect(
      failure(
        await t.post(`${A}/passkey/login`, { response: u.device.get(stale) }),
      ),
    ).toEqual([400, FAILED]);
    const registration = (
      await t.post(
        `${A}/account/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      failure(
        await t.post(`${A}/passkey/login`, {
          response: u.device.get({ challenge: registration.challenge }),
        }),
      ),
    ).toEqual([400, FAILED]);

    const other = await t.register();
    const id = u.device.credentials[0]!.id;
    expect(
      failure(
        await t.post(
          `${A}/account/passkeys/delete`,
          { id, current_password: other.password },
          other.token,
        ),
      ),
    ).toEqual([404, refusal('通行密钥不存在')]);
    expect(
      (
        await t.post(
          `${A}/account/passkeys/delete`,
          { id, current_password: u.password },
          u.token,
        )
      ).json(),
    ).toEqual({ ok: true, data: {} });
    expect(
      failure(
        await t.post(`${A}/passkey/login`, {
          response: u.device.get(await loginOptions()),
        }),
      ),
    ).toEqual([400, FAILED]);
  });

  it('a banned user is refused; an admin removal deletes the passkeys', async () => {
    const u = await withPasskey();
    const admin = await t.admin();
    await t.post(
      `${A}/admin/users/ban`,
      { username: u.username, banned: true },
      admin.token,
    );
    expect(
      failure(
        await t.post(`${A}/passkey/login`, {
          response: u.device.get(await loginOptions()),
        }),
      ),
    ).toEqual([403, refusal('账号已被封禁')]);
    const removed = await t.post(
      `${A}/admin/users/second_factor/remove`,
      { username: u.username },
      admin.token,
    );
    expect(removed.json()).toEqual({
      ok: true,
      data: { totp_removed: false, passkeys_removed: 1 },
    });
  });

  it('20 parallel answers to one challenge sign in exactly once', async () => {
    const u = await withPasskey();
    const answer = u.device.get(await loginOptions());
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.post(`${A}/passkey/login`, { response: answer }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode !== 200).map(failure)).toEqual(
      Array(19).fill([400, FAILED]),
    );
  });

  it('a challenge issued by one instance is answered on another (they share only the database)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-passkey-'));
    const shared = t.runtime.config.databaseUrl.startsWith('postgres')
      ? t.runtime.config.databaseUrl
      : `sqlite:${join(dir, 'db.sqlite')}`;
    const one = await createTestApp(
      { BASE_URL: BASE, DATABASE_URL: shared },
      { now: () => clock },
    );
    const two = await createTestApp(
      { BASE_URL: BASE, DATABASE_URL: shared },
      { now: () => clock },
    );
    try {
      const u = await withPasskey(one);
      const answer = u.device.get(await loginOptions(one));
      expect(
        (await two.post(`${A}/passkey/login`, { response: answer })).statusCode,
      ).toBe(200);
      expect(
        failure(await one.post(`${A}/passkey/login`, { response: answer })),
      ).toEqual([400, FAILED]);
    } finally {
      await one.close();
      await two.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
