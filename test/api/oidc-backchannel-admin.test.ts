import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  discover,
  injectFetch,
  signInWithCode,
} from '../helpers/oidc-client.js';
import { jwtClaims } from '../helpers/jwt.js';
import { LogoutReceiver } from '../helpers/logout-receiver.js';
import { waitFor } from '../helpers/wait.js';

/** OpenID Connect Back-Channel Logout 1.0 (docs/api.md §12.8), to a relying party that verifies with `jose`. */
const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const A = '/api/v1/auth';
let t: TestApp;
let dev: TestUser;
let as: oauth.AuthorizationServer;
let forum: CreatedApp;
let wiki: CreatedApp;
let forumReceiver: LogoutReceiver;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER, WEBHOOK_ALLOW_PRIVATE: 'on' });
  dev = await t.register();
  as = await discover(t, ISSUER);
  forum = await createApp(t, dev, {
    display_name: '论坛',
    redirect_uris: [CB],
  });
  // The wiki registers no back-channel address: it is never called.
  wiki = await createApp(t, dev, { display_name: 'Wiki', redirect_uris: [CB] });
  forumReceiver = new LogoutReceiver(ISSUER, forum.client_id);
  const uri = await forumReceiver.start(
    as.jwks_uri!,
    injectFetch(t.app) as typeof fetch,
  );
  const updated = await t.post(
    `${A}/apps/update`,
    {
      client_id: forum.client_id,
      backchannel_logout_uri: uri,
      backchannel_logout_session_required: true,
    },
    dev.token,
  );
  expect(updated.statusCode, updated.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await forumReceiver.close();
});

/** Signs `user` in to the forum and the wiki from the same browser session; the ID tokens' claims and the forum's refresh token. */
async function signInToBoth(user: TestUser) {
  const f = await signInWithCode(t, as, user, forum, CB);
  const w = await signInWithCode(t, as, user, wiki, CB);
  return {
    forumId: jwtClaims(f.id_token!),
    wikiId: jwtClaims(w.id_token!),
    forumRefresh: f.refresh_token!,
  };
}

const logoutOf = (sid: string) =>
  waitFor(
    `a logout token for ${sid}`,
    20_000,
    () => forumReceiver.forSid(sid)[0],
  );

describe("the admin's view of logout tokens", () => {
  type Row = {
    id: number;
    client_id: string;
    sub: string;
    url: string;
    status: string;
    http_status: number | null;
    tries: number;
    event: string;
  };
  const L = `${A}/admin/webhooks/logout_deliveries`;

  it('lists what was sent to which client for whom, and sends one again on request', async () => {
    const admin = await t.admin();
    const user = await t.register();
    const { forumId } = await signInToBoth(user);
    expect(
      (await t.post(`${A}/logout`, { all: true }, user.token)).statusCode,
    ).toBe(200);
    await logoutOf(forumId.sid);
    const row = await waitFor('the delivered row', 20_000, async () => {
      const rows = (await t.get(L, admin.token)).json().data
        .deliveries as Row[];
      return rows.find(
        (r) => r.sub === String(user.uid) && r.status === 'delivered',
      );
    });
    expect(row).toMatchObject({
      client_id: forum.client_id,
      url: expect.stringMatching(/\/backchannel-logout$/),
      http_status: 200,
      tries: 1,
      event: 'oidc.backchannel_logout',
    });
    expect(JSON.stringify(row)).not.toMatch(/eyJ/);

    const before = forumReceiver.forSid(forumId.sid).length;
    expect(
      (
        await t.post(
          `${A}/admin/webhooks/redeliver`,
          { id: row.id },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    await waitFor(
      'the token sent again',
      20_000,
      () => forumReceiver.forSid(forumId.sid).length > before,
    );
    // Signed again when sent, with the same jti, so a client that acted on the first drops it.
    const [first, ...rest] = forumReceiver
      .forSid(forumId.sid)
      .filter((p) => p.sub === String(user.uid));
    expect(rest.at(-1)).toMatchObject({
      jti: first!.jti,
      sid: forumId.sid,
      aud: forum.client_id,
    });
    expect(rest.at(-1)!.iat).toBeGreaterThanOrEqual(first!.iat!);
  });

  it('is for admins only', async () => {
    expect((await t.get(L, dev.token)).statusCode).toBe(403);
    expect((await t.get(L)).statusCode).toBe(401);
  });
});
