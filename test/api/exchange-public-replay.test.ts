import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failure,
  createTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import {
  authorizeCode,
  createApp,
  pkcePair,
  type CreatedApp,
} from '../helpers/oauth.js';
import {
  CB,
  ENV,
  exchangeRequests,
  startExchangeApp,
} from './exchange-setup.js';

const PUB_CB = 'http://localhost:5173/cb';

let t: TestApp;
let user: TestUser;
let conf: CreatedApp;
let pub: CreatedApp;
beforeAll(async () => {
  ({ t, user, conf } = await startExchangeApp());
  pub = await createApp(t, user, {
    client_type: 'public',
    redirect_uris: [PUB_CB],
  });
});
afterAll(async () => {
  await t.close();
});

const { exchange, confCode } = exchangeRequests(() => ({ t, user, conf }));
async function pubCode() {
  const pair = pkcePair();
  const code = await authorizeCode(t, user, {
    client_id: pub.client_id,
    redirect_uri: PUB_CB,
    code_challenge: pair.challenge,
    code_challenge_method: 'S256',
  });
  return { code, verifier: pair.verifier };
}

describe('public client (PKCE)', () => {
  it('exchanges with the matching verifier, no secret', async () => {
    const { code, verifier } = await pubCode();
    const res = await exchange({
      client_id: pub.client_id,
      code,
      code_verifier: verifier,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().scope).toBe('');
    expect(
      (await t.get('/api/v1/auth/me', res.json().access_token)).json().data.app,
    ).toBe(pub.client_id);
  });

  it('missing code, missing or wrong verifier', async () => {
    const { code, verifier } = await pubCode();
    expect(failure(await exchange({ client_id: pub.client_id }))).toEqual([
      400,
      { ok: false, msg: '参数错误：code' },
    ]);
    expect(failure(await exchange({ client_id: pub.client_id, code }))).toEqual(
      [400, { ok: false, msg: '缺少 code_verifier' }],
    );
    expect(
      failure(
        await exchange({
          client_id: pub.client_id,
          code,
          code_verifier: pkcePair().verifier,
        }),
      ),
    ).toEqual([401, { ok: false, msg: 'code_verifier 校验失败' }]);
    expect(
      failure(
        await exchange({
          client_id: pub.client_id,
          code,
          code_verifier: 'short',
        }),
      ),
    ).toEqual([400, { ok: false, msg: '参数错误：code_verifier' }]);
    expect(
      (
        await exchange({
          client_id: pub.client_id,
          code,
          code_verifier: verifier,
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('replay', () => {
  it('a second exchange is refused and revokes the token issued from the code', async () => {
    const code = await confCode();
    const payload = {
      client_id: conf.client_id,
      client_secret: conf.client_secret,
      code,
    };
    const first = await exchange(payload);
    expect(first.statusCode).toBe(200);
    const token = first.json().access_token;
    expect((await t.get('/api/v1/auth/me', token)).statusCode).toBe(200);
    expect(failure(await exchange(payload))).toEqual([
      400,
      { ok: false, msg: '授权码已被使用' },
    ]);
    expect(failure(await t.get('/api/v1/auth/me', token))).toEqual([
      401,
      { ok: false, msg: '令牌无效或已过期' },
    ]);
    expect(failure(await exchange(payload))).toEqual([
      400,
      { ok: false, msg: '授权码已被使用' },
    ]);
    // Only that token: the user's other tokens keep working.
    expect((await t.get('/api/v1/auth/me', user.token)).statusCode).toBe(200);
    const { entries } = await t.runtime.storage.audit.list(
      { action: 'code.replay', target: conf.client_id },
      0,
      10,
    );
    expect(entries.length).toBeGreaterThan(0);
  });

  it('a public replay without verifier is still a replay', async () => {
    const { code, verifier } = await pubCode();
    const token = (
      await exchange({
        client_id: pub.client_id,
        code,
        code_verifier: verifier,
      })
    ).json().access_token;
    expect(failure(await exchange({ client_id: pub.client_id, code }))).toEqual(
      [400, { ok: false, msg: '授权码已被使用' }],
    );
    expect((await t.get('/api/v1/auth/me', token)).statusCode).toBe(401);
  });

  it('20 simultaneous exchanges of one code: exactly one 200', async () => {
    for (const kind of ['confidential', 'public'] as const) {
      const { code, verifier } =
        kind === 'public'
          ? await pubCode()
          : { code: await confCode(), verifier: undefined };
      const payload =
        kind === 'public'
          ? { client_id: pub.client_id, code, code_verifier: verifier }
          : {
              client_id: conf.client_id,
              client_secret: conf.client_secret,
              code,
            };
      const results = await Promise.all(
        Array.from({ length: 20 }, () => exchange(payload)),
      );
      const ok = results.filter((r) => r.statusCode === 200);
      expect(ok).toHaveLength(1);
      for (const r of results.filter((x) => x.statusCode !== 200))
        expect(failure(r)).toEqual([400, { ok: false, msg: '授权码已被使用' }]);
      // The others were replays, so the one token issued is revoked whatever the interleaving.
      expect(
        (await t.get('/api/v1/auth/me', ok[0]!.json().access_token)).statusCode,
      ).toBe(401);
    }
  });
});

describe('expiry', () => {
  it('an expired code is refused with 授权码已过期 (AUTH_CODE_TTL=1)', async () => {
    let clock = Date.now();
    const short = await createTestApp(
      { ...ENV, AUTH_CODE_TTL: '1' },
      { now: () => clock },
    );
    try {
      const u = await short.register();
      const a = await createApp(short, u);
      const res = await short.post(
        '/api/v1/auth/authorize',
        { client_id: a.client_id, redirect_uri: CB },
        u.token,
      );
      expect(res.json().data.expires_in).toBe(1);
      clock += 1100;
      const ex = await short.post('/api/v1/auth/exchange', {
        client_id: a.client_id,
        client_secret: a.client_secret,
        code: res.json().data.code,
      });
      expect(failure(ex)).toEqual([400, { ok: false, msg: '授权码已过期' }]);
      // Still expired on a second try, not "used": the failed exchange did not consume it.
      const again = await short.post('/api/v1/auth/exchange', {
        client_id: a.client_id,
        client_secret: a.client_secret,
        code: res.json().data.code,
      });
      expect(failure(again)).toEqual([400, { ok: false, msg: '授权码已过期' }]);
    } finally {
      await short.close();
    }
  });
});
