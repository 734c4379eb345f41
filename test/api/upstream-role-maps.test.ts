import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import { addProvider, signInThrough } from '../helpers/upstream/flow.js';
import {
  DISCORD_CLIENT,
  startDiscord,
  type DiscordStandIn,
} from '../helpers/upstream/discord.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Roles from other accounts (ROLES §4, docs/upstream.md): Discord's server roles and GitHub's
 * organizations and teams against local stand-ins of their APIs. Mapped roles follow the
 * upstream, hand-given ones stay, each change is audited by `provider:<id>` and sent once as
 * `user.roles_changed`; a member API that fails never blocks the sign-in.
 */
let center: ListeningCenter;
let admin: TestUser;
let discord: DiscordStandIn;
let github: StandIn;
const receiver = new WebhookReceiver();
const A = '/api/v1/auth';
const GUILD = '613425648685547541';
const MOD = '41771983423143936';
const VIP = '41771983423143937';

beforeAll(async () => {
  [center, discord, github] = await Promise.all([
    listeningCenter({ WEBHOOK_ALLOW_PRIVATE: 'on' }),
    startDiscord(),
    startGithub(),
  ]);
  admin = await center.admin();
  const hook = await center.post(
    `${A}/admin/webhooks`,
    { url: await receiver.start() },
    admin.token,
  );
  receiver.trust(hook.json().data.secret);
  await addProvider(center, admin, {
    id: 'discord',
    type: 'discord',
    name: 'Discord',
    client_id: DISCORD_CLIENT.id,
    client_secret: DISCORD_CLIENT.secret,
    authorization_endpoint: `${discord.base}/oauth2/authorize`,
    token_endpoint: `${discord.base}/api/oauth2/token`,
    api_base: `${discord.base}/api`,
    guild_id: GUILD,
    role_map: { [MOD]: 'moderator', [VIP]: 'vip' },
  });
  await addProvider(center, admin, {
    ...githubProvider(github),
    role_map: { 'Acme/Staff': 'staff', acme: 'member' },
  });
});
afterAll(async () => {
  await Promise.all([discord?.close(), github?.close(), receiver.close()]);
  await center?.close();
});

async function rolesOf(username: string): Promise<string[]> {
  const page = await center.get(
    `${A}/admin/users?q=${encodeURIComponent(username)}`,
    admin.token,
  );
  const users = page.json().data.users as Array<{
    username: string;
    roles: string[];
  }>;
  return users.find((u) => u.username === username)?.roles ?? [];
}

async function auditOf(action: string, target: string) {
  const res = await center.get(
    `${A}/admin/audit?action=${action}&target=${encodeURIComponent(target)}`,
    admin.token,
  );
  return res.json().data.entries as Array<{
    actor: string;
    detail: Record<string, unknown>;
  }>;
}

const setRoles = (username: string, roles: string[]) =>
  center.post(`${A}/admin/users/roles`, { username, roles }, admin.token);

async function signIn(provider: string) {
  const res = await signInThrough(center, provider);
  expect(res.status).toBe(200);
  return res.body.user as { uid: number; username: string };
}

describe('Discord server roles', () => {
  it('asks for guilds.members.read and shows the map to administrators', async () => {
    const list = await center.get(`${A}/admin/providers`, admin.token);
    const p = list
      .json()
      .data.providers.find((x: { id: string }) => x.id === 'discord');
    expect(p).toMatchObject({
      guild_id: GUILD,
      role_map: { [MOD]: 'moderator', [VIP]: 'vip' },
    });
    expect(p.scopes.split(' ')).toContain('guilds.members.read');
  });

  it('adds and removes mapped roles, keeps hand-given ones, audits and tells once', async () => {
    discord.signInAs({
      id: '80351110224678912',
      username: 'nelly',
      members: { [GUILD]: [MOD, '999'] },
    });
    const user = await signIn('discord');
    expect((await rolesOf(user.username)).sort()).toEqual([
      'moderator',
      'player',
    ]);
    const added = await auditOf('user.roles', user.username);
    expect(added[0]).toMatchObject({
      actor: 'provider:discord',
      detail: { from: ['player'], to: ['player', 'moderator'] },
    });

    // Given by hand before the map says so: the map never takes it away.
    expect(
      (await setRoles(user.username, ['player', 'moderator', 'vip']))
        .statusCode,
    ).toBe(200);
    discord.signInAs({
      id: '80351110224678912',
      username: 'nelly',
      members: { [GUILD]: [VIP] },
    });
    await signIn('discord');
    expect((await rolesOf(user.username)).sort()).toEqual(['player', 'vip']);

    // Nothing changes upstream: no write, no event.
    await signIn('discord');
    discord.signInAs({
      id: '80351110224678912',
      username: 'nelly',
      members: {},
    });
    await signIn('discord');
    expect((await rolesOf(user.username)).sort()).toEqual(['player', 'vip']);

    // A marker after everything else about this user: the events before it have arrived.
    await setRoles(user.username, ['player', 'vip', 'builder']);
    const events = await waitFor('the marker event', 20_000, () => {
      const of = receiver
        .ofType('user.roles_changed')
        .filter((e) => e.data.uid === user.uid);
      return (
        of.some((e) => (e.data.roles as string[]).includes('builder')) && of
      );
    });
    expect(events.map((e) => e.data.roles)).toEqual([
      ['player', 'moderator'],
      ['player', 'moderator', 'vip'],
      ['player', 'vip'],
      ['player', 'vip', 'builder'],
    ]);
    const byProvider = (await auditOf('user.roles', user.username)).filter(
      (e) => e.actor === 'provider:discord',
    );
    expect(byProvider).toHaveLength(2);
  });

  it('takes away a role it gave when the person leaves the server', async () => {
    discord.signInAs({
      id: '80351110224678913',
      username: 'leaver',
      members: { [GUILD]: [MOD, VIP] },
    });
    const user = await signIn('discord');
    expect((await rolesOf(user.username)).sort()).toEqual([
      'moderator',
      'player',
      'vip',
    ]);
    discord.signInAs({ id: '80351110224678913', username: 'leaver' });
    await signIn('discord');
    expect(await rolesOf(user.username)).toEqual(['player']);
  });

  for (const [i, failure] of ([500, 429, 'bad-json'] as const).entries()) {
    it(`signs in with the roles as they were when the member API answers ${failure}`, async () => {
      const id = `8035111022467890${i}`;
      discord.signInAs({
        id,
        username: `fails_${String(failure).replace('-', '_')}`,
        members: { [GUILD]: [MOD] },
      });
      const user = await signIn('discord');
      expect(await rolesOf(user.username)).toContain('moderator');
      discord.memberFailure = failure;
      discord.signInAs({ id, username: 'ignored', members: {} });
      try {
        const again = await signIn('discord');
        expect(again.uid).toBe(user.uid);
      } finally {
        discord.memberFailure = undefined;
      }
      expect(await rolesOf(user.username)).toContain('moderator');
      const logged = await auditOf('identity.roles_unread', 'provider:discord');
      expect(logged[0]).toMatchObject({
        actor: 'provider:discord',
        detail: { uid: user.uid },
      });
    });
  }
});

describe('GitHub organizations and teams', () => {
  it('asks for read:org and maps org and org/team without case', async () => {
    github.signInAs({
      id: '9919',
      login: 'hubber',
      orgs: [{ login: 'ACME' }],
      teams: [{ org: 'acme', slug: 'staff' }],
    });
    const user = await signIn('github');
    expect((await rolesOf(user.username)).sort()).toEqual([
      'member',
      'player',
      'staff',
    ]);
    expect(github.log).toContain('GET /user/teams');
    github.signInAs({
      id: '9919',
      login: 'hubber',
      orgs: [{ login: 'acme' }],
    });
    await signIn('github');
    expect((await rolesOf(user.username)).sort()).toEqual(['member', 'player']);
  });

  it('never takes admin from the last administrator, and may give it only when mapped', async () => {
    await center.post(
      `${A}/admin/providers/update`,
      { id: 'github', role_map: { 'acme/owners': 'admin' } },
      admin.token,
    );
    github.signInAs({
      id: '9920',
      login: 'owner',
      teams: [{ org: 'acme', slug: 'owners' }],
    });
    const owner = await signIn('github');
    expect(await rolesOf(owner.username)).toContain('admin');
    // The test's administrator steps down: the one the map made is the last one.
    await center.runtime.services.admin.setRoles(
      admin.username,
      ['player'],
      'test',
    );
    github.signInAs({ id: '9920', login: 'owner', teams: [] });
    const again = await signInThrough(center, 'github');
    expect(again.body.user.roles).toEqual(['player', 'admin']);
  });
});
