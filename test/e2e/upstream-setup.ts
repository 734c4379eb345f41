import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, startCenter, type Center } from './browser.js';
import {
  startSteam,
  STEAM_API_KEY,
  type SteamStandIn,
} from '../helpers/upstream/steam.js';
import { DISCORD_CLIENT, startDiscord } from '../helpers/upstream/discord.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';

const A = '/api/v1/auth';

/** A center with the Steam and Discord presets at their local stand-ins, and a browser. */
export interface UpstreamCenter {
  center: Center;
  browser: Browser;
  steam: SteamStandIn;
  discord: StandIn;
  adminToken: string;
}

export async function startUpstreamCenter(): Promise<UpstreamCenter> {
  const [center, browser, steam, discord] = await Promise.all([
    startCenter(),
    launchBrowser(),
    startSteam(),
    startDiscord(),
  ]);
  const adminToken = (await center.admin()).token;
  const add = async (body: Record<string, unknown>) =>
    expect(
      (await center.post(`${A}/admin/providers`, body, adminToken)).statusCode,
    ).toBe(200);
  await add({
    id: 'steam',
    type: 'steam',
    name: 'Steam',
    openid_endpoint: steam.endpoint,
    api_base: steam.base,
    api_key: STEAM_API_KEY,
  });
  await add({
    id: 'discord',
    type: 'discord',
    name: 'Discord',
    client_id: DISCORD_CLIENT.id,
    client_secret: DISCORD_CLIENT.secret,
    authorization_endpoint: `${discord.base}/oauth2/authorize`,
    token_endpoint: `${discord.base}/api/oauth2/token`,
    api_base: `${discord.base}/api`,
  });
  return { center, browser, steam, discord, adminToken };
}

/** Closes whatever of `s` was started: the browser, the stand-ins, then the center. */
export async function closeUpstreamCenter(s: Partial<UpstreamCenter>) {
  await s.browser?.close();
  await Promise.all([s.steam?.close(), s.discord?.close()]);
  await s.center?.close();
}

/** The /login button that starts a sign-in through the provider `name`. */
export const button = (page: Page, name: string) =>
  page.getByRole('button', { name: `使用 ${name} 登录`, exact: true });
