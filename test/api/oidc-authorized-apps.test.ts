import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  authorizeGet,
  location,
  pagesPost,
  ticketOf,
} from '../helpers/oidc-pages.js';

let t: TestApp;
let dev: TestUser;
let forum: CreatedApp;
let wiki: CreatedApp;
const CB = 'https://rp.example.com/cb';

beforeAll(async () => {
  t = await createTestApp();
  dev = await t.register();
  forum = await createApp(t, dev, {
    display_name: '论坛',
    homepage: 'https://forum.example.com',
    redirect_uris: [CB],
  });
  wiki = await createApp(t, dev, { display_name: 'Wiki', redirect_uris: [CB] });
});
afterAll(async () => {
  await t.close();
});

async function consent(person: TestUser, app: CreatedApp, scope: string) {
  const url = location(
    await authorizeGet(
      t,
      {
        response_type: 'code',
        client_id: app.client_id,
        redirect_uri: CB,
        scope,
      },
      person.token,
    ),
  );
  const res = await pagesPost(
    t,
    '/oauth/consent',
    { ticket: ticketOf(url), decision: 'allow' },
    person.token,
  );
  expect(res.statusCode, res.body).toBe(200);
}

const list = (token: string) =>
  t.get('/api/v1/auth/account/authorized_apps', token);
const revoke = (token: string, payload: unknown) =>
  t.post('/api/v1/auth/account/authorized_apps/revoke', payload, token);

describe('GET /api/v1/auth/account/authorized_apps', () => {
  it("lists the person's consents with app name, scopes and times", async () => {
    const person = await t.register();
    expect((await list(person.token)).json()).toEqual({
      ok: true,
      data: { apps: [] },
    });
    await consent(person, forum, 'openid profile');
    await consent(person, wiki, 'openid');
    await consent(person, forum, 'openid email');
    const res = await list(person.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const apps = res.json().data.apps as Array<Record<string, unknown>>;
    expect(apps.map((a) => a.client_id).sort()).toEqual(
      [forum.client_id, wiki.client_id].sort(),
    );
    const f = apps.find((a) => a.client_id === forum.client_id)!;
    expect(f).toMatchObject({
      display_name: '论坛',
      homepage: 'https://forum.example.com',
      scopes: ['openid', 'profile', 'email'],
    });
    expect(Object.keys(f).sort()).toEqual([
      'client_id',
      'display_name',
      'granted_at',
      'homepage',
      'scopes',
      'updated_at',
    ]);
    expect(
      Number.isInteger(f.granted_at) && (f.granted_at as number) < 1e11,
    ).toBe(true);
    // Someone else's consents are not listed.
    expect((await list(dev.token)).json().data.apps).toEqual([]);
  });

  it('first-party Bearer only, with the seed envelopes', async () => {
    expect(
      (await t.get('/api/v1/auth/account/authorized_apps')).json(),
    ).toEqual({ ok: false, msg: '令牌无效或已过期' });
    expect(
      (
        await t.post('/api/v1/auth/account/authorized_apps/revoke', {
          client_id: forum.client_id,
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('POST /api/v1/auth/account/authorized_apps/revoke', () => {
  it("ends the consent and that app's refresh families, not other apps' or people's", async () => {
    const person = await t.register();
    const other = await t.register();
    await consent(person, forum, 'openid');
    await consent(person, wiki, 'openid');
    await consent(other, forum, 'openid');
    const families = t.runtime.storage.refreshTokens;
    const now = Date.now();
    for (const [id, uid, client] of [
      ['fam-a', person.uid, forum.client_id],
      ['fam-b', person.uid, wiki.client_id],
      ['fam-c', other.uid, forum.client_id],
    ] as const) {
      await families.createFamily({
        familyId: `${id}-${person.uid}`,
        userId: uid,
        clientId: client,
        createdAt: now,
      });
    }

    const res = await revoke(person.token, { client_id: forum.client_id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, data: {} });
    expect(
      (await list(person.token))
        .json()
        .data.apps.map((a: { client_id: string }) => a.client_id),
    ).toEqual([wiki.client_id]);
    expect(
      (await families.findFamily(`fam-a-${person.uid}`))!.revokedAt,
    ).not.toBeNull();
    expect(
      (await families.findFamily(`fam-b-${person.uid}`))!.revokedAt,
    ).toBeNull();
    expect(
      (await families.findFamily(`fam-c-${person.uid}`))!.revokedAt,
    ).toBeNull();
    expect((await list(other.token)).json().data.apps).toHaveLength(1);

    // The next request asks for consent again.
    const again = location(
      await authorizeGet(
        t,
        {
          response_type: 'code',
          client_id: forum.client_id,
          redirect_uri: CB,
          scope: 'openid',
        },
        person.token,
      ),
    );
    expect(again.pathname).toBe('/authorize');
    const audit = await t.runtime.storage.audit.list(
      { action: 'oidc.consent.revoke', target: forum.client_id },
      0,
      10,
    );
    expect(audit.entries[0]).toMatchObject({
      actor: person.username,
      detail: { refresh_families: 1 },
    });
  });

  it('is idempotent; a missing or wrong client_id is a 400', async () => {
    const person = await t.register();
    expect(
      (await revoke(person.token, { client_id: 'never-authorized' })).json(),
    ).toEqual({ ok: true, data: {} });
    expect((await revoke(person.token, {})).json()).toEqual({
      ok: false,
      msg: '参数错误：client_id',
    });
    expect((await revoke(person.token, { client_id: 7 })).json()).toEqual({
      ok: false,
      msg: '参数错误：client_id',
    });
    expect((await revoke(person.token, { client_id: '' })).statusCode).toBe(
      400,
    );
  });
});
