import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { sharedDatabase } from '../helpers/db.js';
import { freePort } from '../helpers/net.js';
import { waitFor } from '../helpers/wait.js';
import {
  browse,
  listeningCenter,
  postJson,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  callbackPage,
  CookieJar,
} from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';

/**
 * Two instances on one database (docs/api.md §14.5): a flow begun on one is finished on the
 * other, and a provider disabled on one loses its button and its callbacks on the other within 5 s.
 */
let first: ListeningCenter;
let second: TestApp & { baseUrl: string };
let github: StandIn;
let admin: TestUser;
let dispose: () => Promise<void> = async () => undefined;
const A = '/api/v1/auth';

beforeAll(async () => {
  const database = await sharedDatabase('ac-upstream-instances-');
  const shared = database.url;
  dispose = database.dispose;
  github = await startGithub();
  first = await listeningCenter({ DATABASE_URL: shared });
  // The same public address: the provider knows one callback, whichever instance answers it.
  const port = await freePort();
  const app = await createTestApp({
    DATABASE_URL: shared,
    BASE_URL: first.baseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  await app.app.listen({ port, host: '127.0.0.1' });
  second = Object.assign(app, { baseUrl: `http://127.0.0.1:${port}` });
  admin = await first.admin();
  await addProvider(first, admin, githubProvider(github));
});
afterAll(async () => {
  await github?.close();
  await second?.close();
  await first?.close();
  await dispose();
});

/** The callback address the provider sends the browser to, pointed at `to` (a load balancer's other choice). */
async function callbackOn(
  to: { baseUrl: string },
  from: { baseUrl: string },
  jar: CookieJar,
): Promise<URL> {
  const stop = await browse(
    `${from.baseUrl}/login/github`,
    jar,
    (url) => url.pathname === '/login/github/callback',
  );
  const url = new URL(stop.url.pathname + stop.url.search, to.baseUrl);
  // The binding cookie belongs to the site; both addresses stand for it here.
  jar.copy(new URL(from.baseUrl).origin, url.origin);
  return url;
}

const buttonsOf = async (t: TestApp) =>
  (await t.get(`${A}/upstream/providers`))
    .json()
    .data.providers.map((p: { id: string }) => p.id);

describe('upstream sign-in across instances', () => {
  it('a state begun on one instance is finished on the other, and the ticket on the first', async () => {
    github.signInAs({ id: '9001', login: 'roaming' });
    const jar = new CookieJar();
    const url = await callbackOn(second, first, jar);
    const page = callbackPage(await browse(url, jar));
    expect(page.result).toBe('signin');
    jar.copy(new URL(second.baseUrl).origin, new URL(first.baseUrl).origin);
    const done = await postJson(
      first,
      `${A}/upstream/finish`,
      { ticket: page.ticket },
      jar,
    );
    expect(done.body.user.username).toBe('roaming');
  });

  it('a provider disabled on one instance loses its button and callbacks on the other within 5 s', async () => {
    await waitFor('the second instance to show the button', 5000, async () =>
      (await buttonsOf(second)).includes('github'),
    );
    github.signInAs({ id: '9002', login: 'late' });
    const jar = new CookieJar();
    const pending = await callbackOn(second, second, jar);
    expect(
      (
        await first.post(
          `${A}/admin/providers/status`,
          { id: 'github', enabled: false },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    expect(await buttonsOf(first)).toEqual([]);
    await waitFor(
      'the second instance to drop the button',
      5000,
      async () => (await buttonsOf(second)).length === 0,
    );
    expect(callbackPage(await browse(pending, jar))).toMatchObject({
      status: 404,
      result: 'error',
    });
  });
});
