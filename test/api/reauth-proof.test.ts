import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, refusal, type TestApp } from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import {
  BASE,
  reauthRequests,
  STEP_MS,
  startReauthApp,
} from './reauth-setup.js';

/**
 * docs/api.md §10: a bearer token alone never changes how an account is signed in to. Every
 * such change takes the current password (and a code when the authenticator is on) in the
 * request; a two-step change lets its second step follow in the same session for 10 minutes.
 */
const A = '/api/v1/auth';
const ACC = `${A}/account`;
const REAUTH = refusal('需要重新验证身份');

let t: TestApp;
let clock = Date.UTC(2031, 2, 1, 9, 0, 0);
beforeAll(async () => {
  t = await startReauthApp(() => clock);
});
afterAll(async () => {
  await t.close();
});

const { codeAt, login, enrolled } = reauthRequests({
  app: () => t,
  now: () => clock,
  step: () => {
    clock += STEP_MS;
  },
});

/** Each endpoint that starts a sensitive change, with the rest of a valid body. */
const starts = (): Array<[string, Record<string, unknown>]> => [
  ['totp/setup', {}],
  ['passkeys/options', {}],
  ['passkeys/delete', { id: 'no-such-passkey' }],
  ['email/send_code', { email: `new_${clock}@example.org` }],
  ['password', { new_password: 'brand new password' }],
  ['delete', {}],
];

describe('every sensitive change needs the proof in the request', () => {
  it('without it or with a wrong password: 401, and nothing changed', async () => {
    const u = await t.register();
    for (const [path, body] of starts()) {
      expect(
        failure(await t.post(`${ACC}/${path}`, body, u.token)),
        path,
      ).toEqual([401, REAUTH]);
      expect(
        failure(
          await t.post(
            `${ACC}/${path}`,
            { ...body, current_password: 'not the password' },
            u.token,
          ),
        ),
        path,
      ).toEqual([401, REAUTH]);
    }
    expect((await t.get(`${A}/me`, u.token)).json().data.email).toBe(u.email);
    expect(
      (
        await t.post(`${A}/login`, {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('with the authenticator on: the password alone or with a wrong code is 401', async () => {
    const u = await enrolled();
    const all: Array<[string, Record<string, unknown>]> = [
      ...starts(),
      ['totp/disable', {}],
      ['recovery_codes', {}],
    ];
    for (const [path, body] of all) {
      expect(
        failure(await t.post(`${ACC}/${path}`, body, u.token)),
        path,
      ).toEqual([401, REAUTH]);
      expect(
        failure(
          await t.post(
            `${ACC}/${path}`,
            { ...body, current_password: u.password },
            u.token,
          ),
        ),
        path,
      ).toEqual([401, REAUTH]);
      expect(
        failure(
          await t.post(
            `${ACC}/${path}`,
            { ...body, current_password: u.password, otp: '000000' },
            u.token,
          ),
        ),
        path,
      ).toEqual([401, REAUTH]);
    }
    // The older field names still work, and a code alone is not enough.
    expect(
      failure(
        await t.post(
          `${ACC}/recovery_codes`,
          { code: await codeAt(u.secret) },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    expect(
      failure(
        await t.post(
          `${ACC}/delete`,
          { password: 'not the password', otp: '000000' },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    expect(
      (
        await t.post(
          `${ACC}/recovery_codes`,
          { current_password: u.password, otp: await codeAt(u.secret) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    clock += STEP_MS;
    expect(
      (
        await t.post(
          `${ACC}/totp/disable`,
          { password: u.password, code: await codeAt(u.secret) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
  });

  it('an account without a usable password can not prove itself yet: 401', async () => {
    const u = await t.register();
    // As an account created without a password would be (none is, today).
    await t.runtime.storage.users.update(u.uid, { passwordHash: '' }, clock);
    expect(
      failure(
        await t.post(
          `${ACC}/passkeys/options`,
          { current_password: '' },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    expect(
      failure(
        await t.post(
          `${ACC}/passkeys/options`,
          { current_password: u.password },
          u.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
  });
});

describe('a thief with only the bearer token', () => {
  it("can add neither a passkey nor the authenticator, and nothing of theirs outlives the owner's password change", async () => {
    const victim = await t.register();
    const stolen = victim.token;
    const device = new SoftAuthenticator(BASE);
    expect(
      failure(await t.post(`${ACC}/passkeys/options`, {}, stolen)),
    ).toEqual([401, REAUTH]);
    // Without options there is no challenge to answer, and without the grant no registration.
    const forged = device.create({
      challenge: 'AAAA',
      user: { id: 'x' },
      rp: { id: 'id.example.com' },
    });
    expect(
      failure(
        await t.post(`${ACC}/passkeys/register`, { response: forged }, stolen),
      ),
    ).toEqual([401, REAUTH]);
    expect(failure(await t.post(`${ACC}/totp/setup`, {}, stolen))).toEqual([
      401,
      REAUTH,
    ]);
    expect(
      failure(await t.post(`${ACC}/totp/enable`, { code: '123456' }, stolen)),
    ).toEqual([401, REAUTH]);
    expect((await t.get(`${ACC}/second_factor`, stolen)).json().data).toEqual({
      totp: false,
      recovery_codes_left: 0,
      passkeys: [],
    });

    // The owner changes the password and ends every other session: nothing of the thief's is left.
    const own = await login(victim);
    expect(
      (
        await t.post(
          `${ACC}/password`,
          {
            current_password: victim.password,
            new_password: 'brand new password',
          },
          own,
        )
      ).statusCode,
    ).toBe(200);
    expect((await t.get(`${A}/me`, stolen)).statusCode).toBe(401);
    const options = (await t.post(`${A}/passkey/options`, {})).json().data;
    expect(
      failure(
        await t.post(`${A}/passkey/login`, {
          response: device.get(options, device.credentials[0]),
        }),
      ),
    ).toEqual([400, refusal('通行密钥验证失败')]);
  });
});
