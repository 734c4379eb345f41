import type * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, expect } from 'vitest';
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

export const ISSUER = 'https://id.example.com';
export const CB = 'https://rp.example.com/cb';
const A = '/api/v1/auth';

/** An app with a forum that takes back-channel logout tokens at its receiver, and a wiki that does not. */
export interface ForumAndWiki {
  t: TestApp;
  dev: TestUser;
  as: oauth.AuthorizationServer;
  forum: CreatedApp;
  wiki: CreatedApp;
  forumReceiver: LogoutReceiver;
}

export async function startForumAndWiki(): Promise<ForumAndWiki> {
  const t = await createTestApp({
    BASE_URL: ISSUER,
    WEBHOOK_ALLOW_PRIVATE: 'on',
  });
  const dev = await t.register();
  const as = await discover(t, ISSUER);
  const forum = await createApp(t, dev, {
    display_name: '论坛',
    redirect_uris: [CB],
  });
  // The wiki registers no back-channel address: it is never called.
  const wiki = await createApp(t, dev, {
    display_name: 'Wiki',
    redirect_uris: [CB],
  });
  const forumReceiver = new LogoutReceiver(ISSUER, forum.client_id);
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
  return { t, dev, as, forum, wiki, forumReceiver };
}

/** Sign-ins to the forum and wiki `current()` returns, and the logout tokens its receiver got. */
export function forumAndWikiFlows(current: () => ForumAndWiki) {
  /** Signs `user` in to the forum and the wiki from the same browser session; the ID tokens' claims and the forum's refresh token. */
  async function signInToBoth(user: TestUser) {
    const { t, as, forum, wiki } = current();
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
      () => current().forumReceiver.forSid(sid)[0],
    );

  return { signInToBoth, logoutOf };
}

/** One such app shared by a test file's tests and closed after them, with the flows above. */
export function forumAndWiki() {
  const env = {} as ForumAndWiki;
  beforeAll(async () => {
    Object.assign(env, await startForumAndWiki());
  });
  afterAll(async () => {
    await env.t.close();
    await env.forumReceiver.close();
  });
  return { env, ...forumAndWikiFlows(() => env) };
}
