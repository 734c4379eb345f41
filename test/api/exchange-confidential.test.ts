import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, type TestApp, type TestUser } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import { randomToken, sha256Hex } from '../../src/platform/crypto/random.js';
import { CB, exchangeRequests, startExchangeApp } from './exchange-setup.js';

let t: TestApp;
let user: TestUser;
let conf: CreatedApp;
beforeAll(async () => {
  ({ t, user, conf } = await startExchangeApp());
});
afterAll(async () => {
  await t.close();
});

const { exchange, confCode } = exchangeRequests(() => ({ t, user, conf }));

describe('confidential client', () => {
  it('exchanges a code for a token envelope plus scope', async () => {
    const code = await confCode({ scope: 'email' });
    const res = await exchange({
      client_id: conf.client_id,
      client_secret: conf.client_secret,
      code,
      redirect_uri: CB,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const b = res.json();
    expect(Object.keys(b).sort()).toEqual([
      'access_token',
      'expires_in',
      'ok',
      'scope',
      'token_type',
      'user',
    ]);
    expect(b).toMatchObject({
      ok: true,
      token_type: 'Bearer',
      expires_in: 604800,
      scope: 'email',
    });
    expect(b.user).toEqual({
      uid: user.uid,
      username: user.username,
      display_name: user.username,
      email: user.email,
      roles: ['player'],
    });
    const me = await t.get('/api/v1/auth/me', b.access_token);
    expect(me.statusCode).toBe(200);
    expect(me.json().data.app).toBe(conf.client_id);
  });

  it('a code issued before codes carried the time (43 characters, stored under its plain hash) still exchanges, once', async () => {
    const code = randomToken(32);
    const now = Date.now();
    await t.runtime.storage.codes.create({
      codeHash: sha256Hex(code),
      clientId: conf.client_id,
      userId: user.uid,
      redirectUri: CB,
      scope: 'email',
      codeChallenge: null,
      codeChallengeMethod: null,
      expiresAt: now + 60_000,
      createdAt: now,
    });
    const res = await exchange({
      client_id: conf.client_id,
      client_secret: conf.client_secret,
      code,
      redirect_uri: CB,
    });
    expect([res.statusCode, res.json().scope]).toEqual([200, 'email']);
    expect(
      failure(
        await exchange({
          client_id: conf.client_id,
          client_secret: conf.client_secret,
          code,
          redirect_uri: CB,
        }),
      ),
    ).toEqual([400, { ok: false, msg: '授权码已被使用' }]);
  });

  it('check order: client_id, app, status, credentials, then the code', async () => {
    const code = await confCode();
    expect(failure(await exchange({}))).toEqual([
      400,
      { ok: false, msg: '请提供 client_id、client_secret 与 code' },
    ]);
    expect(
      failure(await exchange({ code, client_secret: conf.client_secret })),
    ).toEqual([
      400,
      { ok: false, msg: '请提供 client_id、client_secret 与 code' },
    ]);
    expect(
      failure(
        await exchange({ client_id: 'no-such-app', code, client_secret: 'x' }),
      ),
    ).toEqual([404, { ok: false, msg: '未知的应用' }]);
    expect(
      failure(
        await exchange({
          client_id: 'account-center',
          code,
          client_secret: 'x',
        }),
      ),
    ).toEqual([404, { ok: false, msg: '未知的应用' }]);
    expect(
      failure(await exchange({ client_id: conf.client_id, code })),
    ).toEqual([
      400,
      { ok: false, msg: '请提供 client_id、client_secret 与 code' },
    ]);
    expect(
      failure(
        await exchange({
          client_id: conf.client_id,
          client_secret: conf.client_secret,
        }),
      ),
    ).toEqual([
      400,
      { ok: false, msg: '请提供 client_id、client_secret 与 code' },
    ]);
    expect(
      failure(
        await exchange({ client_id: conf.client_id, client_secret: '', code }),
      ),
    ).toEqual([
      400,
      { ok: false, msg: '请提供 client_id、client_secret 与 code' },
    ]);
    expect(
      failure(
        await exchange({
          client_id: conf.client_id,
          client_secret: 'wrong',
          code,
        }),
      ),
    ).toEqual([401, { ok: false, msg: 'client_secret 不正确' }]);
    expect(
      failure(
        await exchange({
          client_id: conf.client_id,
          client_secret: 'wrong',
          code: 'garbage',
        }),
      ),
    ).toEqual([401, { ok: false, msg: 'client_secret 不正确' }]);
    expect(
      failure(
        await exchange({
          client_id: conf.client_id,
          client_secret: conf.client_secret,
          code: 'garbage',
        }),
      ),
    ).toEqual([400, { ok: false, msg: '授权码无效' }]);
    expect(
      failure(
        await exchange({
          client_id: 5,
          client_secret: conf.client_secret,
          code,
        }),
      ),
    ).toEqual([400, { ok: false, msg: '参数错误：client_id' }]);
    // None of the failures above burnt the code.
    expect(
      (
        await exchange({
          client_id: conf.client_id,
          client_secret: conf.client_secret,
          code,
        })
      ).statusCode,
    ).toBe(200);
  });
});
