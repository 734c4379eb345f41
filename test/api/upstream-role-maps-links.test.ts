import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
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
  signInThrough,
  throughProvider,
} from '../helpers/upstream/flow.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';

/**
 * A role map applies at a link as at a sign-in (ROLES §4): a link made from /account, and the
 * link of a subject whose address belongs to an account, once that account proves itself. A
 * mapped role held before the link is the account's own and stays when the upstream drops it.
 */
let center: ListeningCenter;
let admin: TestUser;
let github: StandIn;
const A = '/api/v1/auth';

beforeAll(async () => {
  [center, github] = await Promise.all([listeningCenter(), startGithub()]);
  admin = await center.admin();
  await addProvider(center, admin, {
    ...githubProvider(github),
    role_map: { 'acme/staff': 'staff', acme: 'member' },
  });
});
afterAll(async () => {
  await github?.close();
  await center?.close();
});

const rolesOf = async (token: string): Promise<string[]> =>
  ((await center.get(`${A}/me`, token)).json().data.roles as string[])
    .slice()
    .sort();

describe('role maps at a link', () => {
  it('a link from /account adds mapped roles and keeps those held before', async () => {
    const person = await center.register();
    await center.post(
      `${A}/admin/users/roles`,
      { username: person.username, roles: ['player', 'staff'] },
      admin.token,
    );
    github.signInAs({
      id: '7101',
      login: 'linker',
      orgs: [{ login: 'acme' }],
      teams: [{ org: 'acme', slug: 'staff' }],
    });
    const jar = new CookieJar();
    const start = await postJson(
      center,
      `${A}/account/upstream/link`,
      { provider: 'github', current_password: person.password },
      jar,
      person.token,
    );
    expect(start.status).toBe(200);
    const page = callbackPage(
      await browse(new URL(start.body.data.url, center.baseUrl), jar),
    );
    expect(page.url.search).toBe('?linked=github');
    expect(await rolesOf(person.token)).toEqual(['member', 'player', 'staff']);

    // Upstream, the person leaves: the map takes back `member`, which it gave, not `staff`.
    github.signInAs({ id: '7101', login: 'linker' });
    expect((await signInThrough(center, 'github')).body.user.uid).toBe(
      person.uid,
    );
    expect(await rolesOf(person.token)).toEqual(['player', 'staff']);
  });

  it('linking an address that belongs to an account applies the map once it is proven', async () => {
    const email = `holder-${Date.now()}@example.com`;
    const holder = await center.register({ email });
    github.signInAs({
      id: '7102',
      login: 'holder_gh',
      emails: [{ email, primary: true, verified: true }],
      orgs: [{ login: 'acme' }],
    });
    const jar = new CookieJar();
    const page = await throughProvider(center, 'github', jar);
    expect(page).toMatchObject({ result: 'email_exists', email });
    expect(await rolesOf(holder.token)).toEqual(['player']);
    const linked = await postJson(
      center,
      `${A}/upstream/link_existing`,
      { ticket: page.ticket, current_password: holder.password },
      jar,
      holder.token,
    );
    expect(linked.status).toBe(200);
    expect(await rolesOf(holder.token)).toEqual(['member', 'player']);
  });
});
