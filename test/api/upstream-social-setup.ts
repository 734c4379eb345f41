import { afterAll, beforeAll } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import { addProvider } from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';
import { DISCORD_CLIENT, startDiscord } from '../helpers/upstream/discord.js';
import {
  startSteam,
  STEAM_API_KEY,
  type SteamStandIn,
} from '../helpers/upstream/steam.js';
import { QQ_CLIENT, startQq, type QqStandIn } from '../helpers/upstream/qq.js';
import { startWechat, WECHAT_CLIENT } from '../helpers/upstream/wechat.js';

/** A center with the five social presets, each pointed at its local stand-in. */
export interface SocialCenter {
  center: ListeningCenter;
  admin: TestUser;
  github: StandIn;
  discord: StandIn;
  steam: SteamStandIn;
  qq: QqStandIn;
  wechat: StandIn;
}

/** Starts the stand-ins and a center whose clock reads `now`, and adds one provider per preset. */
export async function startSocialCenter(
  now: () => number,
): Promise<SocialCenter> {
  const [center, github, discord, steam, qq, wechat] = await Promise.all([
    listeningCenter({}, { now }),
    startGithub(),
    startDiscord(),
    startSteam(),
    startQq(),
    startWechat(),
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
  await addProvider(center, admin, {
    id: 'steam',
    type: 'steam',
    name: 'Steam',
    openid_endpoint: steam.endpoint,
    api_base: steam.base,
    api_key: STEAM_API_KEY,
  });
  await addProvider(center, admin, {
    id: 'qq',
    type: 'qq',
    name: 'QQ',
    client_id: QQ_CLIENT.id,
    client_secret: QQ_CLIENT.secret,
    authorization_endpoint: `${qq.base}/oauth2.0/authorize`,
    token_endpoint: `${qq.base}/oauth2.0/token`,
    api_base: qq.base,
  });
  await addProvider(center, admin, {
    id: 'wechat',
    type: 'wechat',
    name: '微信',
    client_id: WECHAT_CLIENT.id,
    client_secret: WECHAT_CLIENT.secret,
    authorization_endpoint: `${wechat.base}/connect/qrconnect`,
    token_endpoint: `${wechat.base}/sns/oauth2/access_token`,
    api_base: wechat.base,
  });
  return { center, admin, github, discord, steam, qq, wechat };
}

/** Stops whatever of `s` was started, stand-ins first. */
export async function closeSocialCenter(s: Partial<SocialCenter>) {
  await Promise.all(
    [s.github, s.discord, s.steam, s.qq, s.wechat].map((x) => x?.close()),
  );
  await s.center?.close();
}

/** One such center shared by a test file's tests, on the clock `now` reads, closed after them. */
export function socialCenter(now: () => number = Date.now): SocialCenter {
  const env = {} as SocialCenter;
  beforeAll(async () => {
    Object.assign(env, await startSocialCenter(now));
  });
  afterAll(async () => {
    await closeSocialCenter(env);
  });
  return env;
}
