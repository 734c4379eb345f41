import { describe, expect, it } from 'vitest';
import { call, runCli, runCommand, within } from './helpers/server.js';
import { instancePair, PG, signInToNewClient } from './multi-instance-setup.js';

/**
 * Roles on two real processes sharing one PostgreSQL schema, changed through the CLI: UserInfo
 * on the other instance answers the new roles within 5 s, and the role and app commands keep
 * the catalogue and an app's required roles.
 */
const ISSUER = 'https://id.roles.example';
const CB = 'https://rp.roles.example/cb';

describe.skipIf(!PG)('roles on two instances of one PostgreSQL schema', () => {
  const pair = instancePair(() => ({ BASE_URL: ISSUER }));

  it('a role given on the command line reaches UserInfo on the other instance within 5 s', async () => {
    const added = JSON.parse(
      await runCli(pair.env, [
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
    const { client, tokens, username } = await signInToNewClient(pair.A.url, {
      prefix: 'roles_mi',
      app: 'Roles RP',
      redirectUri: CB,
      scope: 'openid roles',
    });
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
    expect(await rolesAt(pair.B.url)).toEqual(['player']);

    await runCli(pair.env, ['user', 'roles', username, 'player,moderator']);
    const tookMs = await within(5000, async () =>
      (await rolesAt(pair.B.url)).includes('moderator'),
    );
    expect(tookMs).toBeLessThan(5000);

    // An app requiring the role keeps the role in the catalogue; clearing it lets it go.
    await runCli(pair.env, [
      'app',
      'update',
      client[0],
      '--require-roles',
      'moderator',
    ]);
    const refused = await runCommand(pair.env, ['role', 'remove', 'moderator']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(client[0]);
    await runCli(pair.env, ['app', 'update', client[0], '--require-roles', '']);
    await runCli(pair.env, ['role', 'remove', 'moderator']);
    const listed = JSON.parse(await runCli(pair.env, ['role', 'list']))
      .roles as Array<{
      name: string;
    }>;
    expect(listed.map((r) => r.name)).toEqual(['player', 'admin']);
    await within(
      5000,
      async () => !(await rolesAt(pair.B.url)).includes('moderator'),
    );
  });
});
