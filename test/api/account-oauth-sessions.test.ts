import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, postForm, signInWithCode } from '../helpers/oidc-client.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const A = '/api/v1/auth';
let t: TestApp;
let dev: TestUser;
let admin: TestUser;
let as: oauth.AuthorizationServer;
let forum: CreatedApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER });
  dev = await t.register();
  admin = await t.admin();
  forum = await createApp(t, dev, {
    display_name: '论坛',
    redirect_uris: [CB],
  });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

/** The authorization code flow as a relying party runs it; returns the token response. */
const signIn = (user: TestUser, client = forum) =>
  signInWithCode(t, as, user, client, CB);

const refresh = (token: string, client = forum) =>
  postForm(
    t,
    '/oauth/token',
    { grant_type: 'refresh_token', refresh_token: token },
    { basic: [client.client_id, client.client_secret!] },
  );
/** Introspection by the client the token was issued to (only it learns anything, RFC 7662 §4). */
const introspect = async (token: string, client = forum) =>
  (
    await postForm(
      t,
      '/oauth/introspect',
      { token },
      { basic: [client.client_id, client.client_secret!] },
    )
  ).json();
type Listed = {
  id: string;
  kind: string;
  app: string;
  app_name: string;
  created_at: number;
  last_used_at: number;
  ip: string;
  user_agent: string;
  current: boolean;
};
const sessionsOf = async (user: TestUser): Promise<Listed[]> =>
  (await t.get(`${A}/account/sessions`, user.token)).json().data.sessions;
const oauthOf = async (user: TestUser) =>
  (await sessionsOf(user)).filter((s) => s.kind === 'oauth');
const refused = (res: { statusCode: number; json(): { error?: string } }) => [
  res.statusCode,
  res.json().error,
];

describe('OAuth refresh families in the session list', () => {
  it('are listed beside the own sessions, marked oauth, with app, times and empty address', async () => {
    const user = await t.register();
    const before = Math.floor(Date.now() / 1000);
    const tokens = await signIn(user);
    const all = await sessionsOf(user);
    expect(all.filter((s) => s.kind === 'token').map((s) => s.current)).toEqual(
      [true],
    );
    const fam = all.find((s) => s.kind === 'oauth')!;
    expect(all).toHaveLength(2);
    expect(fam).toMatchObject({
      kind: 'oauth',
      app: forum.client_id,
      app_name: '论坛',
      ip: '',
      user_agent: '',
      current: false,
    });
    expect(fam.id.startsWith('oauth:')).toBe(true);
    expect(Object.keys(fam).sort()).toEqual([
      'app',
      'app_name',
      'created_at',
      'current',
      'id',
      'ip',
      'kind',
      'last_used_at',
      'user_agent',
    ]);
    expect(fam.created_at).toBeGreaterThanOrEqual(before);
    expect(fam.last_used_at).toBeGreaterThanOrEqual(fam.created_at);
    // A rotation keeps the same family: still one entry, the same id.
    const rotated = await refresh(tokens.refresh_token!);
    expect(rotated.statusCode).toBe(200);
    expect((await oauthOf(user)).map((s) => s.id)).toEqual([fam.id]);
    // Someone else's list does not show it.
    expect((await oauthOf(dev)).map((s) => s.id)).not.toContain(fam.id);
  });

  it('ending one revokes the family: its refresh token is invalid_grant, its access token inactive', async () => {
    const user = await t.register();
    const ended = await signIn(user);
    const [target] = (await oauthOf(user)).map((s) => s.id);
    const kept = await signIn(user);
    expect(await oauthOf(user)).toHaveLength(2);
    expect(
      (
        await t.post(`${A}/account/sessions/end`, { id: target }, user.token)
      ).json(),
    ).toEqual({ ok: true, data: {} });
    const left = (await oauthOf(user)).map((s) => s.id);
    expect(left).toHaveLength(1);
    expect(left).not.toContain(target);
    expect(refused(await refresh(ended.refresh_token!))).toEqual([
      400,
      'invalid_grant',
    ]);
    expect(await introspect(ended.access_token)).toEqual({ active: false });
    expect(
      (await t.get('/oauth/userinfo', ended.access_token)).statusCode,
    ).toBe(401);
    expect((await refresh(kept.refresh_token!)).statusCode).toBe(200);
    expect((await introspect(kept.access_token)).active).toBe(true);
    // Ending it again, another person ending one, or an unknown id: the unknown-session 404.
    expect(
      failure(
        await t.post(`${A}/account/sessions/end`, { id: target }, user.token),
      ),
    ).toEqual([404, refusal('会话不存在')]);
    expect(
      failure(
        await t.post(`${A}/account/sessions/end`, { id: left[0] }, dev.token),
      ),
    ).toEqual([404, refusal('会话不存在')]);
    expect(
      failure(
        await t.post(
          `${A}/account/sessions/end`,
          { id: 'oauth:nope' },
          user.token,
        ),
      ),
    ).toEqual([404, refusal('会话不存在')]);
    expect((await oauthOf(user)).map((s) => s.id)).toEqual(left);
  });

  it('end_others revokes them too and counts them', async () => {
    const user = await t.register();
    const other = await t.register();
    const a = await signIn(user);
    const b = await signIn(user);
    const theirs = await signIn(other);
    const res = await t.post(
      `${A}/account/sessions/end_others`,
      {},
      user.token,
    );
    expect(res.json()).toEqual({ ok: true, data: { ended: 2 } });
    expect(await oauthOf(user)).toEqual([]);
    for (const x of [a, b])
      expect(refused(await refresh(x.refresh_token!))).toEqual([
        400,
        'invalid_grant',
      ]);
    expect(await introspect(a.access_token)).toEqual({ active: false });
    expect((await refresh(theirs.refresh_token!)).statusCode).toBe(200);
    expect(await oauthOf(other)).toHaveLength(1);
  });

  it('a password change and logout-all cut them off, and they leave the list', async () => {
    const user = await t.register();
    const first = await signIn(user);
    const changed = await t.post(
      `${A}/account/password`,
      { current_password: user.password, new_password: 'another-password-1' },
      user.token,
    );
    expect(changed.statusCode).toBe(200);
    expect(
      await oauthOf({ ...user, token: changed.json().access_token }),
    ).toEqual([]);
    expect(refused(await refresh(first.refresh_token!))).toEqual([
      400,
      'invalid_grant',
    ]);

    const next = await t.register();
    const second = await signIn(next);
    expect(await oauthOf(next)).toHaveLength(1);
    await t.post(`${A}/logout`, { all: true }, next.token);
    expect(refused(await refresh(second.refresh_token!))).toEqual([
      400,
      'invalid_grant',
    ]);
    expect(await introspect(second.access_token)).toEqual({ active: false });
  });

  it('the admin sees them in the user detail and ends one with users/sessions/end', async () => {
    const user = await t.register();
    const tokens = await signIn(user);
    const detail = (
      await t.get(
        `${A}/admin/users/detail?username=${user.username}`,
        admin.token,
      )
    ).json().data;
    const fam = (detail.sessions as Listed[]).find((s) => s.kind === 'oauth')!;
    expect(fam).toMatchObject({
      app: forum.client_id,
      app_name: '论坛',
      current: false,
    });
    const end = await t.post(
      `${A}/admin/users/sessions/end`,
      { username: user.username, id: fam.id },
      admin.token,
    );
    expect(end.json()).toEqual({ ok: true, data: {} });
    expect(refused(await refresh(tokens.refresh_token!))).toEqual([
      400,
      'invalid_grant',
    ]);
    expect(await oauthOf(user)).toEqual([]);
    // Another user's family named with this user is unknown.
    const otherTokens = await signIn(dev);
    const devFam = (await oauthOf(dev)).at(-1)!;
    expect(
      failure(
        await t.post(
          `${A}/admin/users/sessions/end`,
          { username: user.username, id: devFam.id },
          admin.token,
        ),
      ),
    ).toEqual([404, refusal('会话不存在')]);
    expect((await refresh(otherTokens.refresh_token!)).statusCode).toBe(200);
  });
});
