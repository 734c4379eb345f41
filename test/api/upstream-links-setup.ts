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
} from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';
import { DISCORD_CLIENT, startDiscord } from '../helpers/upstream/discord.js';

const A = '/api/v1/auth';

/** A center with the GitHub and Discord presets, each pointed at its local stand-in. */
export interface LinksCenter {
  center: ListeningCenter;
  admin: TestUser;
  github: StandIn;
  discord: StandIn;
}

export async function startLinksCenter(): Promise<LinksCenter> {
  const [center, github, discord] = await Promise.all([
    listeningCenter(),
    startGithub(),
    startDiscord(),
  ]);
  const admin = await center.admin();
  await addProvider(center, admin, githubProvider(github));
  await addProvider(center, admin, {
    id: 'discord',
    type: 'discord',
    name: 'Discord',
    client_id: DISCORD_CLIENT.id,
    client_secret: DISCORD_CLIENT.secret,
    authorization_endpoint: `${discord.base}/oauth2/authorize`,
    token_endpoint: `${discord.base}/api/oauth2/token`,
    api_base: `${discord.base}/api`,
  });
  return { center, admin, github, discord };
}

/** Stops whatever of `s` was started, stand-ins first. */
export async function closeLinksCenter(s: Partial<LinksCenter>) {
  await Promise.all([s.github?.close(), s.discord?.close()]);
  await s.center?.close();
}

/** The /account link requests against the center `current()` returns. */
export function accountLinks(current: () => ListeningCenter) {
  /** Starts a link or re-authentication from /account in the browser of `jar`, and follows it to the end. */
  async function fromAccount(
    path: 'link' | 'reauth',
    token: string,
    body: Record<string, unknown>,
    jar = new CookieJar(),
  ) {
    const center = current();
    const start = await postJson(
      center,
      `${A}/account/upstream/${path}`,
      body,
      jar,
      token,
    );
    if (start.status !== 200) return { start, page: undefined };
    return {
      start,
      page: callbackPage(
        await browse(new URL(start.body.data.url, center.baseUrl), jar),
      ),
    };
  }

  const linksOf = async (token: string) =>
    (await current().get(`${A}/account/upstream`, token)).json().data;

  return { fromAccount, linksOf };
}
