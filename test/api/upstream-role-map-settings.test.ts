import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, refusal, type TestUser } from '../helpers/app.js';
import { cliWorkspace } from '../helpers/cli.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  signInThrough,
  throughProvider,
  CookieJar,
} from '../helpers/upstream/flow.js';
import {
  startOidcUpstream,
  type OidcUpstream,
} from '../helpers/upstream/oidc-upstream.js';

/**
 * Role maps as administrators set them (API and CLI: clear refusals for a bad map), the
 * OpenID Connect `groups` claim (panva's oidc-provider upstream), and a provider's last
 * failure shown with it.
 */
let center: ListeningCenter;
let upstream: OidcUpstream;
let admin: TestUser;
const A = '/api/v1/auth';
const P = `${A}/admin/providers`;
const ws = cliWorkspace('ac-role-maps-cli-');

beforeAll(async () => {
  center = await listeningCenter();
  upstream = await startOidcUpstream(
    ['corp', 'broken'].map((id) => `${center.baseUrl}/login/${id}/callback`),
  );
  admin = await center.admin();
  await addProvider(center, admin, {
    id: 'corp',
    type: 'oidc',
    name: 'Corp SSO',
    client_id: upstream.clientId,
    client_secret: upstream.clientSecret,
    issuer: upstream.issuer,
    scopes: 'openid profile groups',
    role_map: JSON.stringify({ 'grafana-editors': 'editor', ops: 'operator' }),
  });
});
afterAll(async () => {
  await upstream?.close();
  await center?.close();
  await ws.dispose();
});

const roles = async (username: string) =>
  (
    (await center.get(`${A}/admin/users?q=${username}`, admin.token)).json()
      .data.users as Array<{ username: string; roles: string[] }>
  ).find((u) => u.username === username)?.roles;

describe('the OpenID Connect groups claim', () => {
  it('maps claim values to roles and follows them at the next sign-in', async () => {
    upstream.signInAs('sub-groups', {
      preferred_username: 'grouped',
      groups: [
        'grafana-editors',
        'ops',
        'unmapped',
        '__proto__',
        'constructor',
      ],
    });
    const first = await signInThrough(center, 'corp');
    expect(first.body.user.roles.sort()).toEqual([
      'editor',
      'operator',
      'player',
    ]);
    upstream.signInAs('sub-groups', {
      preferred_username: 'grouped',
      groups: 'ops',
    });
    const second = await signInThrough(center, 'corp');
    expect(second.body.user.roles.sort()).toEqual(['operator', 'player']);
    expect(await roles('grouped')).toEqual(['player', 'operator']);
  });

  it('reads another claim when told, and a claim that is no list leaves the roles', async () => {
    await center.post(
      `${P}/update`,
      { id: 'corp', role_claim: 'name', role_map: { Ops: 'operator' } },
      admin.token,
    );
    upstream.signInAs('sub-claim', {
      preferred_username: 'claimed',
      name: 'Ops',
    });
    expect(
      (await signInThrough(center, 'corp')).body.user.roles.sort(),
    ).toEqual(['operator', 'player']);
    await center.post(
      `${P}/update`,
      { id: 'corp', role_claim: 'iat' },
      admin.token,
    );
    const kept = await signInThrough(center, 'corp');
    expect(kept.body.user.roles.sort()).toEqual(['operator', 'player']);
    const corp = (await center.get(P, admin.token))
      .json()
      .data.providers.find((p: { id: string }) => p.id === 'corp');
    expect(corp.last_error).toMatchObject({
      action: 'identity.roles_unread',
      message: 'claim iat: not a string or a list of strings',
    });
  });
});

describe('settings', () => {
  const bad = async (body: Record<string, unknown>) =>
    failure(await center.post(`${P}/update`, body, admin.token));

  it('refuses a bad map with a clear 400 naming the field', async () => {
    for (const body of [
      { id: 'corp', role_map: '{"ops": ' },
      { id: 'corp', role_map: '["ops"]' },
      { id: 'corp', role_map: { ops: 'Not A Role' } },
      { id: 'corp', role_map: { ops: 'x'.repeat(33) } },
      { id: 'corp', role_map: { ops: 7 } },
    ])
      expect(await bad(body)).toEqual([400, refusal('参数错误：role_map')]);
    expect(await bad({ id: 'corp', role_claim: 'a b' })).toEqual([
      400,
      refusal('参数错误：role_claim'),
    ]);
    expect(await bad({ id: 'corp', guild_id: '1' })).toEqual([
      400,
      refusal('参数错误：guild_id'),
    ]);
    const discord = {
      id: 'dc',
      type: 'discord',
      name: 'Discord',
      client_id: '1',
      client_secret: 's',
    };
    for (const [body, field] of [
      [{ ...discord, role_map: { '123': 'vip' } }, 'guild_id'],
      [{ ...discord, guild_id: '5', role_map: { vip: 'vip' } }, 'role_map'],
      [{ ...discord, guild_id: 'server' }, 'guild_id'],
      [
        {
          id: 'st',
          type: 'steam',
          name: 'Steam',
          role_map: { '1': 'vip' },
        },
        'role_map',
      ],
    ] as const)
      expect(failure(await center.post(P, body, admin.token))).toEqual([
        400,
        refusal(`参数错误：${field}`),
      ]);
  });

  it('shows the last failure of a provider that refused a sign-in', async () => {
    await addProvider(center, admin, {
      id: 'broken',
      type: 'oidc',
      name: 'Broken',
      client_id: upstream.clientId,
      client_secret: 'not-the-secret-0123456789',
      issuer: upstream.issuer,
    });
    upstream.signInAs('sub-broken', { preferred_username: 'broken' });
    const page = await throughProvider(center, 'broken', new CookieJar());
    expect(page.result).toBe('error');
    const broken = (await center.get(P, admin.token))
      .json()
      .data.providers.find((p: { id: string }) => p.id === 'broken');
    expect(broken.last_error).toMatchObject({
      action: 'login.failure',
      message: expect.stringMatching(/\S/),
      at: expect.any(Number),
    });
  });
});

describe('account-center provider --role-map', () => {
  it('sets a map and a server, and refuses bad JSON with one line and exit 2', async () => {
    const db = await ws.freshDatabase('rolemaps');
    expect((await ws.cli(db, ['migrate'])).code).toBe(0);
    const base = ['provider', 'add', '--id', 'dc', '--type', 'discord'];
    const more = [
      '--name',
      'Discord',
      '--client-id',
      '1',
      '--client-secret',
      's',
    ];
    const broken = await ws.cli(db, [
      ...base,
      ...more,
      '--guild',
      '42',
      '--role-map',
      '{"1":',
    ]);
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toMatch(/--role-map is not valid JSON/);
    const added = await ws.cli(db, [
      ...base,
      ...more,
      '--guild',
      '42',
      '--role-map',
      '{"7":"vip","8":"admin"}',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      guild_id: '42',
      role_map: { '7': 'vip', '8': 'admin' },
      scopes: 'identify email guilds.members.read',
    });
    const cleared = await ws.cli(db, [
      'provider',
      'update',
      'dc',
      '--role-map',
      '{}',
    ]);
    expect(JSON.parse(cleared.stdout)).toMatchObject({
      role_map: {},
      scopes: 'identify email',
    });
  });
});
