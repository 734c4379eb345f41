import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
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

describe('passkey registration', () => {
  it('offers discoverable-credential options for the BASE_URL host, and registers the answer', async () => {
    const u = await t.register();
    const options = (
      await t.post(
        `${A}/account/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(options).toMatchObject({
      rp: { id: 'id.example.com', name: '账号中心' },
      user: { name: u.username },
      authenticatorSelection: {
        residentKey: 'required',
        userVerification: 'required',
      },
      attestation: 'none',
    });
    const device = new SoftAuthenticator(BASE);
    const answer = device.create(options);
    const res = await t.post(
      `${A}/account/passkeys/register`,
      { name: '  工作电脑  ', response: answer },
      u.token,
    );
    expect(res.json()).toEqual({
      ok: true,
      data: {
        id: device.credentials[0]!.id,
        name: '工作电脑',
        created_at: Math.floor(clock / 1000),
        last_used_at: null,
      },
    });
    // The challenge was used up: the same answer again is refused (even with a new grant).
    await t.post(
      `${A}/account/passkeys/options`,
      { current_password: u.password },
      u.token,
    );
    expect(
      failure(
        await t.post(
          `${A}/account/passkeys/register`,
          { response: answer },
          u.token,
        ),
      ),
    ).toEqual([400, FAILED]);
    const status = (await t.get(`${A}/account/second_factor`, u.token)).json()
      .data;
    expect(status.passkeys).toHaveLength(1);
    // Already registered credentials are excluded from the next options.
    const next = (
      await t.post(
        `${A}/account/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(next.excludeCredentials).toEqual([
      {
        id: device.credentials[0]!.id,
        type: 'public-key',
        transports: ['internal'],
      },
    ]);
  });

  it("refuses an answer for another origin, another user's challenge, or a stale challenge", async () => {
    const u = await t.register();
    const other = await t.register();
    const options = (
      await t.post(
        `${A}/account/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      failure(
        await t.post(
          `${A}/account/passkeys/register`,
          {
            response: new SoftAuthenticator('https://evil.example').create(
              options,
            ),
          },
          u.token,
        ),
      ),
    ).toEqual([400, FAILED]);
    const second = (
      await t.post(
        `${A}/account/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    // The other user holds a grant of their own: what refuses the answer is the challenge's owner.
    await t.post(
      `${A}/account/passkeys/options`,
      { current_password: other.password },
      other.token,
    );
    expect(
      failure(
        await t.post(
          `${A}/account/passkeys/register`,
          { response: new SoftAuthenticator(BASE).create(second) },
          other.token,
        ),
      ),
    ).toEqual([400, FAILED]);
    const third = (
      await t.post(
        `${A}/account/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    clock += 5 * 60_000 + 1;
    expect(
      failure(
        await t.post(
          `${A}/account/passkeys/register`,
          { response: new SoftAuthenticator(BASE).create(third) },
          u.token,
        ),
      ),
    ).toEqual([400, FAILED]);
  });

  it('answers malformed bodies with 400, never 500', async () => {
    const u = await t.register();
    const url = `${A}/account/passkeys/register`;
    await t.post(
      `${A}/account/passkeys/options`,
      { current_password: u.password },
      u.token,
    );
    expect(failure(await t.post(url, {}, u.token))).toEqual([
      400,
      refusal('参数错误：response'),
    ]);
    expect(failure(await t.post(url, { response: 'x' }, u.token))).toEqual([
      400,
      refusal('参数错误：response'),
    ]);
    for (const response of [
      {},
      { id: 1 },
      { id: 'x', response: {} },
      {
        id: 'x',
        type: 'public-key',
        response: { clientDataJSON: '!!', attestationObject: 'AA' },
      },
    ]) {
      expect(failure(await t.post(url, { response }, u.token))).toEqual([
        400,
        FAILED,
      ]);
      expect(failure(await t.post(`${A}/passkey/login`, { response }))).toEqual(
        [400, FAILED],
      );
    }
    expect((await t.post(`${A}/account/passkeys/options`, {})).statusCode).toBe(
      401,
    );
  });
});
