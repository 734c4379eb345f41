import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema } from './helpers/db.js';
import { fetchForm } from './helpers/net.js';
import { authorizeRedirect, consentOverHttp } from './helpers/oidc-client.js';
import {
  call,
  runCli,
  runCommand,
  startServer,
  within,
  type RunningServer,
} from './helpers/server.js';

/**
 * Roles on two real processes sharing one PostgreSQL schema, changed through the CLI: UserInfo
 * on the other instance answers the new roles within 5 s, and the role and app commands keep
 * the catalogue and an app's required roles.
 */
const PG = process.env.TEST_PG_URL;
const ISSUER = 'https://id.roles.example';
const CB = 'https://rp.roles.example/cb';

describe.skipIf(!PG)('roles on two instances of one PostgreSQL schema', () => {
  let db: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let env: Record<string, string>;
  let A: RunningServer;
  let B: RunningServer;

  beforeAll(async () => {
    db = await freshPostgresSchema(PG!);
    env = { DATABASE_URL: `${db.url}&pool_max=4`, BASE_URL: ISSUER };
    [A, B] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([A?.stop(), B?.stop()]);
    await db?.dispose();
  });

  it('a role given on the command line reaches UserInfo on the other instance within 5 s', async () => {
    const added = JSON.parse(
      await runCli(env, [
        'role',
        'add',
        'moderator',
        '--name',
        '版主',
        '--name-en',
        'Moderator',
      ]),
    );
    expect(added.role).toMatchObject({
      name: 'moderator',
      display_name: '版主',
      display_name_en: 'Moderator',
      builtin: false,
    });
    const username = `roles_mi_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
    const reg = await call(A.url, 'POST', '/api/v1/auth/register', {
      username,
      password: 'correct horse battery',
      email: `${username}@example.com`,
    });
    const token: string = reg.body.access_token;
    const app = await call(
      A.url,
      'POST',
      '/api/v1/auth/apps',
      { display_name: 'Roles RP', redirect_uris: [CB] },
      token,
    );
    const client: [string, string] = [
      app.body.data.client_id,
      app.body.data.client_secret,
    ];
    const asked = await authorizeRedirect(A.url, token, {
      response_type: 'code',
      client_id: client[0],
      redirect_uri: CB,
      scope: 'openid roles',
      state: 's',
    });
    const code = (await consentOverHttp(A.url, token, asked)).searchParams.get(
      'code',
    )!;
    const tokens = (
      await fetchForm(
        A.url,
        '/oauth/token',
        { grant_type: 'authorization_code', code, redirect_uri: CB },
        client,
      )
    ).body as Record<string, string>;
    const rolesAt = async (base: string) =>
      (
        await call(
          base,
          'GET',
          '/oauth/userinfo',
          undefined,
          tokens.access_token,
        )
      ).body.roles as string[];
    expect(await rolesAt(B.url)).toEqual(['player']);

    await runCli(env, ['user', 'roles', username, 'player,moderator']);
    const tookMs = await within(5000, async () =>
      (await rolesAt(B.url)).includes('moderator'),
    );
    expect(tookMs).toBeLessThan(5000);

    // An app requiring the role keeps the role in the catalogue; clearing it lets it go.
    await runCli(env, [
      'app',
      'update',
      client[0],
      '--require-roles',
      'moderator',
    ]);
    const refused = await runCommand(env, ['role', 'remove', 'moderator']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(client[0]);
    await runCli(env, ['app', 'update', client[0], '--require-roles', '']);
    await runCli(env, ['role', 'remove', 'moderator']);
    const listed = JSON.parse(await runCli(env, ['role', 'list']))
      .roles as Array<{
      name: string;
    }>;
    expect(listed.map((r) => r.name)).toEqual(['player', 'admin']);
    await within(
      5000,
      async () => !(await rolesAt(B.url)).includes('moderator'),
    );
  });
});
