import { describe, expect, it } from 'vitest';
import { call, runCli, within } from './helpers/server.js';
import { jwtClaims } from './helpers/jwt.js';
import {
  instancePair,
  me,
  PASSWORD,
  PG,
  register,
  runName,
} from './multi-instance-setup.js';

/** Two real server processes on one PostgreSQL schema. */
const AUTH = '/api/v1/auth';

describe.skipIf(!PG)('two instances on one PostgreSQL schema', () => {
  const pair = instancePair();

  async function issueCode(owner: { token: string }): Promise<{
    clientId: string;
    secret: string;
    code: () => Promise<string>;
  }> {
    const app = await call(
      pair.A.url,
      'POST',
      `${AUTH}/apps`,
      { display_name: 'Multi', redirect_uris: ['https://mi.example.com/cb'] },
      owner.token,
    );
    expect(app.status).toBe(200);
    const clientId: string = app.body.data.client_id;
    return {
      clientId,
      secret: app.body.data.client_secret,
      code: async () => {
        const r = await call(
          pair.A.url,
          'POST',
          `${AUTH}/authorize`,
          {
            client_id: clientId,
            redirect_uri: 'https://mi.example.com/cb',
            state: 's',
          },
          owner.token,
        );
        expect(r.status).toBe(200);
        return r.body.data.code as string;
      },
    };
  }

  it('a code issued on A is exchanged on B', async () => {
    const user = await register(pair.A.url);
    const app = await issueCode(user);
    const res = await call(pair.B.url, 'POST', `${AUTH}/exchange`, {
      client_id: app.clientId,
      client_secret: app.secret,
      code: await app.code(),
    });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe(user.username);
    expect((await me(pair.A.url, res.body.access_token)).status).toBe(200);
  });

  it('20 simultaneous exchanges of one code split across A and B: exactly one succeeds', async () => {
    const user = await register(pair.B.url);
    const app = await issueCode(user);
    const code = await app.code();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(i % 2 ? pair.A.url : pair.B.url, 'POST', `${AUTH}/exchange`, {
          client_id: app.clientId,
          client_secret: app.secret,
          code,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ ok: false, msg: '授权码已被使用' });
    }
  });

  it('a ban made on A answers 403 at B within 5 s', async () => {
    const user = await register(pair.A.url);
    expect((await me(pair.B.url, user.token)).status).toBe(200);
    const adminName = runName('adm');
    await runCli(pair.env, [
      'user',
      'create',
      '--username',
      adminName,
      '--password',
      PASSWORD,
      '--email',
      `${adminName}@example.com`,
      '--roles',
      'player,admin',
    ]);
    const admin = await call(pair.A.url, 'POST', `${AUTH}/login`, {
      username: adminName,
      password: PASSWORD,
    });
    expect(admin.status).toBe(200);
    const ban = await call(
      pair.A.url,
      'POST',
      `${AUTH}/admin/users/ban`,
      { username: user.username, banned: true },
      admin.body.access_token,
    );
    expect(ban.status).toBe(200);
    expect((await me(pair.A.url, user.token)).status).toBe(403);
    await within(
      5000,
      async () => (await me(pair.B.url, user.token)).status === 403,
    );
    expect((await me(pair.B.url, user.token)).body).toEqual({
      ok: false,
      msg: '账号已被封禁',
    });
  });

  it('a logout on A answers 401 at B within 5 s', async () => {
    const user = await register(pair.A.url);
    expect((await me(pair.B.url, user.token)).status).toBe(200);
    expect(
      (await call(pair.A.url, 'POST', `${AUTH}/logout`, undefined, user.token))
        .status,
    ).toBe(200);
    expect((await me(pair.A.url, user.token)).status).toBe(401);
    await within(
      5000,
      async () => (await me(pair.B.url, user.token)).status === 401,
    );
    expect(
      (await call(pair.B.url, 'POST', `${AUTH}/refresh`, undefined, user.token))
        .status,
    ).toBe(401);
  });

  it('a session ended on A answers 401 at B within 5 s; the other session lives; the list agrees on both', async () => {
    const user = await register(pair.A.url);
    const other = await call(pair.B.url, 'POST', `${AUTH}/login`, {
      username: user.username,
      password: PASSWORD,
    });
    const sid = jwtClaims(String(other.body.access_token)).sid as string;
    expect((await me(pair.B.url, other.body.access_token)).status).toBe(200);
    const ended = await call(
      pair.A.url,
      'POST',
      `${AUTH}/account/sessions/end`,
      { id: sid },
      user.token,
    );
    expect(ended.status).toBe(200);
    await within(
      5000,
      async () =>
        (await me(pair.B.url, other.body.access_token)).status === 401,
    );
    expect((await me(pair.B.url, user.token)).status).toBe(200);
    const list = await call(
      pair.B.url,
      'GET',
      `${AUTH}/account/sessions`,
      undefined,
      user.token,
    );
    expect(
      list.body.data.sessions.map((s: { id: string }) => s.id),
    ).not.toContain(sid);
  });
});
