import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { cliWorkspace } from '../helpers/cli.js';
import { postForm } from '../helpers/oidc-client.js';

/**
 * An application that only uses `client_credentials` (a game server calling the admin API)
 * sends nobody's browser anywhere: it may have no redirect URI (docs/api.md §4.4). Every
 * other application still needs one.
 */
const A = '/api/v1/auth';
const MACHINE = ['client_credentials'];
let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await t.register();
});
afterAll(async () => {
  await t.close();
});

const create = (fields: Record<string, unknown>) =>
  t.post(`${A}/apps`, { display_name: '服务器', ...fields }, owner.token);
const NEEDS_URIS = [400, refusal('参数错误：redirect_uris')];

describe('an app with the client_credentials grant alone', () => {
  it('may be registered without redirect URIs, and gets its tokens', async () => {
    const res = await create({ redirect_uris: [], grant_types: MACHINE });
    expect(res.statusCode, res.body).toBe(200);
    const app = res.json().data;
    expect(app).toMatchObject({
      redirect_uris: [],
      grant_types: MACHINE,
      client_type: 'confidential',
    });
    const token = await postForm(
      t,
      '/oauth/token',
      { grant_type: 'client_credentials' },
      { basic: [app.client_id, app.client_secret] },
    );
    expect(token.statusCode, token.body).toBe(200);
  });

  it('cannot then take up a grant that needs a redirect URI without giving one', async () => {
    const app = (
      await create({ redirect_uris: [], grant_types: MACHINE })
    ).json().data;
    const widen = await t.post(
      `${A}/apps/update`,
      {
        client_id: app.client_id,
        grant_types: ['client_credentials', 'authorization_code'],
      },
      owner.token,
    );
    expect(failure(widen)).toEqual(NEEDS_URIS);
    const both = await t.post(
      `${A}/apps/update`,
      {
        client_id: app.client_id,
        grant_types: ['authorization_code'],
        redirect_uris: ['https://game.example.com/cb'],
      },
      owner.token,
    );
    expect(both.statusCode, both.body).toBe(200);
  });
});

describe('every other app', () => {
  it('still needs at least one redirect URI, as before', async () => {
    expect(failure(await create({ redirect_uris: [] }))).toEqual(NEEDS_URIS);
    expect(
      failure(
        await create({
          redirect_uris: [],
          grant_types: ['client_credentials', 'authorization_code'],
        }),
      ),
    ).toEqual(NEEDS_URIS);
    expect(failure(await create({ grant_types: MACHINE }))).toEqual(NEEDS_URIS);
    const app = (
      await create({ redirect_uris: ['https://web.example.com/cb'] })
    ).json().data;
    expect(
      failure(
        await t.post(
          `${A}/apps/update`,
          { client_id: app.client_id, redirect_uris: [] },
          owner.token,
        ),
      ),
    ).toEqual(NEEDS_URIS);
  });
});

describe('account-center app create', () => {
  const ws = cliWorkspace('ac-machine-app-');
  afterAll(async () => {
    await ws.dispose();
  });

  it('needs no --redirect-uri with --grant-types client_credentials, and still does otherwise', async () => {
    const db = await ws.freshDatabase('machine');
    expect(
      (
        await ws.cli(db, [
          'user',
          'create',
          '--username',
          'gameops',
          '--password',
          'correct horse battery',
          '--email',
          'gameops@example.com',
        ])
      ).code,
    ).toBe(0);
    const made = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'gameops',
      '--name',
      'Game server',
      '--grant-types',
      'client_credentials',
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({
      redirect_uris: [],
      grant_types: MACHINE,
    });
    const web = await ws.cli(db, [
      'app',
      'create',
      '--owner',
      'gameops',
      '--name',
      'Website',
    ]);
    expect(web.code).toBe(2);
    expect(web.stderr).toContain('--redirect-uri');
  }, 120_000);
});
