import { randomBytes } from 'node:crypto';
// The PrismarineJS client launchers' libraries are modelled on: nothing of ours is used to talk to the API.
import yggdrasil from 'yggdrasil';
import { uniqueName, type TestUser } from '../helpers/app.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';

export interface YggdrasilCenter {
  c: ListeningCenter;
  root: string;
  auth: ReturnType<typeof yggdrasil>;
  session: ReturnType<typeof yggdrasil.server>;
}

/** A center with Minecraft on (two profiles per account) and the launcher and server clients of its API. */
export async function startYggdrasil(): Promise<YggdrasilCenter> {
  const c = await listeningCenter({
    MINECRAFT: 'on',
    MINECRAFT_MAX_PROFILES: '2',
  });
  const root = `${c.baseUrl}/api/yggdrasil`;
  const auth = yggdrasil({ host: `${root}/authserver` });
  const session = yggdrasil.server({ host: `${root}/sessionserver` });
  return { c, root, auth, session };
}

export const profileName = () =>
  `p${uniqueName('')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-12)}`;

/** A new account on the center `current()` returns, with this many Minecraft profiles (one by default). */
export function playerMaker(current: () => ListeningCenter) {
  return async function player(
    opts: { profiles?: number } = {},
  ): Promise<TestUser & { profiles: Array<{ id: string; name: string }> }> {
    const c = current();
    const u = await c.register();
    const profiles = [];
    for (let i = 0; i < (opts.profiles ?? 1); i++) {
      profiles.push(
        (
          await c.post(
            '/api/v1/auth/account/minecraft/profiles',
            { name: profileName() },
            u.token,
          )
        ).json().data,
      );
    }
    return { ...u, profiles };
  };
}

/** Joins through the session server client `current()` returns. */
export function joinMaker(current: () => YggdrasilCenter['session']) {
  /** A join by the client and the game server's check, as minecraft-protocol does them, with a fresh server id. */
  async function joinAndCheck(
    accessToken: string,
    profile: { id: string; name: string },
  ) {
    const session = current();
    const serverId = randomBytes(6).toString('hex');
    const secret = randomBytes(16);
    const key = randomBytes(32);
    await session.join(accessToken, profile.id, serverId, secret, key);
    return {
      check: () => session.hasJoined(profile.name, serverId, secret, key),
    };
  }
  return joinAndCheck;
}
