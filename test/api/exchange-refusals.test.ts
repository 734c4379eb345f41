import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, type TestApp, type TestUser } from '../helpers/app.js';
import {
  authorizeCode,
  createApp,
  pkcePair,
  type CreatedApp,
} from '../helpers/oauth.js';
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
  it('a rotated secret fails at once', async () => {
    const a = await createApp(t, user);
    const code = await authorizeCode(t, user, {
      client_id: a.client_id,
      redirect_uri: CB,
    });
    const fresh = (
      await t.post(
        '/api/v1/auth/apps/rotate_secret',
        { client_id: a.client_id },
        user.token,
      )
    ).json().data.client_secret;
    expect(
      failure(
        await exchange({
          client_id: a.client_id,
          client_secret: a.client_secret,
          code,
        }),
      ),
    ).toEqual([401, { ok: false, msg: 'client_secret 不正确' }]);
    expect(
      (await exchange({ client_id: a.client_id, client_secret: fresh, code }))
        .statusCode,
    ).toBe(200);
  });

  it('a code of another client, or for another callback, is invalid', async () => {
    const other = await createApp(t, user);
    const code = await confCode();
    expect(
      failure(
        await exchange({
          client_id: other.client_id,
          client_secret: other.client_secret,
          code,
        }),
      ),
    ).toEqual([400, { ok: false, msg: '授权码无效' }]);
    expect(
      failure(
        await exchange({
          client_id: conf.client_id,
          client_secret: conf.client_secret,
          code,
          redirect_uri: `${CB}/`,
        }),
      ),
    ).toEqual([400, { ok: false, msg: '授权码无效' }]);
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

  it('PKCE on a confidential client: the verifier is then required', async () => {
    const pair = pkcePair();
    const code = await confCode({
      code_challenge: pair.challenge,
      code_challenge_method: 'S256',
    });
    const base = {
      client_id: conf.client_id,
      client_secret: conf.client_secret,
      code,
    };
    expect(failure(await exchange(base))).toEqual([
      400,
      { ok: false, msg: '缺少 code_verifier' },
    ]);
    expect(
      failure(await exchange({ ...base, code_verifier: pkcePair().verifier })),
    ).toEqual([401, { ok: false, msg: 'code_verifier 校验失败' }]);
    expect(
      (await exchange({ ...base, code_verifier: pair.verifier })).statusCode,
    ).toBe(200);
  });

  it('PKCE downgrade: a verifier for a code without challenge is refused', async () => {
    const code = await confCode();
    expect(
      failure(
        await exchange({
          client_id: conf.client_id,
          client_secret: conf.client_secret,
          code,
          code_verifier: pkcePair().verifier,
        }),
      ),
    ).toEqual([401, { ok: false, msg: 'code_verifier 校验失败' }]);
  });

  it('disabled app: 403 at exchange, even with a code issued before', async () => {
    const a = await createApp(t, user);
    const code = await authorizeCode(t, user, {
      client_id: a.client_id,
      redirect_uri: CB,
    });
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: a.client_id },
      user.token,
    );
    expect(
      failure(
        await exchange({
          client_id: a.client_id,
          client_secret: a.client_secret,
          code,
        }),
      ),
    ).toEqual([403, { ok: false, msg: '该应用已被停用' }]);
    await t.post(
      '/api/v1/auth/apps/disable',
      { client_id: a.client_id },
      user.token,
    );
    expect(
      (
        await exchange({
          client_id: a.client_id,
          client_secret: a.client_secret,
          code,
        })
      ).statusCode,
    ).toBe(200);
  });
});
