import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { cliWorkspace } from '../helpers/cli.js';
import { sharedDatabase } from '../helpers/db.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, signInWithCode } from '../helpers/oidc-client.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Addresses registered while WEBHOOK_ALLOW_PRIVATE was on, sent to after it was turned off:
 * each delivery there fails at its first try, with the reason, instead of being retried for
 * 3 days (docs/webhooks.md).
 */
const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const A = '/api/v1/auth';
const INTERNAL = 'http://127.0.0.1:9';
type Row = {
  status: string;
  tries: number;
  next_try_at: number | null;
  http_status: number | null;
  response: string;
  client_id?: string;
  sub?: string;
};

let db: Awaited<ReturnType<typeof sharedDatabase>>;
let strict: TestApp;
let admin: TestUser;
let person: TestUser;
let endpointId: string;
let forum: CreatedApp;

beforeAll(async () => {
  db = await sharedDatabase('ac-refused-');
  const loose = await createTestApp({
    DATABASE_URL: db.url,
    BASE_URL: ISSUER,
    WEBHOOK_ALLOW_PRIVATE: 'on',
  });
  try {
    admin = await loose.admin();
    const added = await loose.post(
      `${A}/admin/webhooks`,
      { url: `${INTERNAL}/hooks`, events: ['user.banned'] },
      admin.token,
    );
    expect(added.statusCode, added.body).toBe(200);
    endpointId = added.json().data.id;
    const owner = await loose.register();
    forum = await createApp(loose, owner, {
      redirect_uris: [CB],
      backchannel_logout_uri: `${INTERNAL}/bcl`,
    });
    person = await loose.register();
    await signInWithCode(
      loose,
      await discover(loose, ISSUER),
      person,
      forum,
      CB,
    );
  } finally {
    await loose.close();
  }
  strict = await createTestApp({ DATABASE_URL: db.url, BASE_URL: ISSUER });
});
afterAll(async () => {
  await strict?.close();
  await db.dispose();
});

describe('a delivery to an address refused as internal', () => {
  it('fails at its first try, with the reason, in both delivery lists', async () => {
    expect(
      (
        await strict.post(
          `${A}/admin/users/ban`,
          { username: person.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    const hook = await waitFor('the webhook tried', 20_000, async () =>
      (
        (
          await strict.get(
            `${A}/admin/webhooks/deliveries?id=${endpointId}`,
            admin.token,
          )
        ).json().data.deliveries as Row[]
      ).find((d) => d.tries > 0),
    );
    expect(hook).toMatchObject({
      status: 'failed',
      tries: 1,
      next_try_at: null,
      http_status: null,
      response: 'refused: an internal address',
    });
    const logout = await waitFor('the logout token tried', 20_000, async () =>
      (
        (
          await strict.get(`${A}/admin/webhooks/logout_deliveries`, admin.token)
        ).json().data.deliveries as Row[]
      ).find((d) => d.tries > 0),
    );
    expect(logout).toMatchObject({
      client_id: forum.client_id,
      sub: String(person.uid),
      status: 'failed',
      tries: 1,
      next_try_at: null,
      response: 'refused: an internal address',
    });
  });
});

describe('registering a back-channel address that delivery would refuse', () => {
  const REFUSED = [400, refusal('后台退出通知地址不能是内部网络地址')];
  const internal = [
    'http://127.0.0.1:9/bcl',
    'https://127.0.0.1/bcl',
    'http://localhost:8080/bcl',
    'https://[::1]/bcl',
    'https://10.0.0.5/bcl',
    'https://192.168.1.2/bcl',
    'https://169.254.169.254/bcl',
  ];

  it('is refused by the apps API on create and update while WEBHOOK_ALLOW_PRIVATE is off', async () => {
    const owner = await strict.register();
    const app = await createApp(strict, owner, {
      redirect_uris: [CB],
      backchannel_logout_uri: 'https://rp.example.com/bcl',
    });
    for (const uri of internal) {
      expect(
        failure(
          await strict.post(
            `${A}/apps`,
            {
              display_name: 'Internal',
              redirect_uris: [CB],
              backchannel_logout_uri: uri,
            },
            owner.token,
          ),
        ),
        uri,
      ).toEqual(REFUSED);
      expect(
        failure(
          await strict.post(
            `${A}/apps/update`,
            { client_id: app.client_id, backchannel_logout_uri: uri },
            owner.token,
          ),
        ),
        uri,
      ).toEqual(REFUSED);
    }
    const apps = (await strict.get(`${A}/apps`, owner.token)).json().data
      .apps as CreatedApp[];
    expect(apps.map((a) => a.backchannel_logout_uri)).toEqual([
      'https://rp.example.com/bcl',
    ]);
  });

  it('is refused by the command line, with the reason', async () => {
    const ws = cliWorkspace('ac-refused-cli-');
    try {
      const made = await ws.cli(db.url, [
        'app',
        'create',
        '--owner',
        person.username,
        '--name',
        'Internal',
        '--redirect-uri',
        CB,
        '--backchannel-logout-uri',
        'http://127.0.0.1:9/bcl',
      ]);
      expect(made.code).toBe(2);
      expect(made.stderr).toContain('internal address');
      const allowed = await ws.cli(
        db.url,
        [
          'app',
          'create',
          '--owner',
          person.username,
          '--name',
          'Internal',
          '--redirect-uri',
          CB,
          '--backchannel-logout-uri',
          'http://127.0.0.1:9/bcl',
        ],
        { WEBHOOK_ALLOW_PRIVATE: 'on' },
      );
      expect(allowed.code, allowed.stderr).toBe(0);
    } finally {
      ws.dispose();
    }
  }, 60_000);
});
