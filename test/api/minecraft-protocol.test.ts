import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mc from 'minecraft-protocol';
import { uniqueName, type TestUser } from '../helpers/app.js';
import { freePort } from '../helpers/net.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';

const VERSION = '1.16.5';
let c: ListeningCenter;
let server: mc.Server;
let port: number;
let admin: TestUser;
/** Runs just before the game server asks the center about a join; a test may ban the player there. */
let beforeSessionCheck: (username: string) => Promise<void> = async () =>
  undefined;

/**
 * minecraft-protocol's server asks the session server through the `yggdrasil` package with
 * Mojang's address built in; pointing that package at the center is what authlib-injector's
 * -javaagent does for a Java server.
 */
function pointSessionServerAt(host: string): () => void {
  const yggdrasil = createRequire(import.meta.url)('yggdrasil') as {
    server: (o: { host?: string }) => {
      hasJoined: (...a: unknown[]) => unknown;
    };
  };
  const original = yggdrasil.server;
  yggdrasil.server = (opts) => {
    const real = original({ ...opts, host: opts.host ?? host });
    return {
      ...real,
      hasJoined: (username: unknown, ...rest: unknown[]) => {
        const cb = rest.at(-1) as (err: unknown, profile?: unknown) => void;
        beforeSessionCheck(String(username)).then(
          () => real.hasJoined(username, ...rest),
          cb,
        );
      },
    };
  };
  return () => {
    yggdrasil.server = original;
  };
}

let restore: () => void;
beforeAll(async () => {
  c = await listeningCenter({ MINECRAFT: 'on' });
  admin = await c.admin();
  restore = pointSessionServerAt(`${c.baseUrl}/api/yggdrasil/sessionserver`);
  port = await freePort();
  server = mc.createServer({
    host: '127.0.0.1',
    port,
    version: VERSION,
    'online-mode': true,
    hideErrors: true,
  });
  await new Promise<void>((resolve) =>
    server.once('listening', () => resolve()),
  );
});
afterAll(async () => {
  server?.close();
  restore?.();
  await c.close();
});

const profileName = () =>
  `p${uniqueName('')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-12)}`;

async function player(): Promise<
  TestUser & { profile: { id: string; name: string } }
> {
  const u = await c.register();
  const profile = (
    await c.post(
      '/api/v1/auth/account/minecraft/profiles',
      { name: profileName() },
      u.token,
    )
  ).json().data;
  return { ...u, profile };
}

/** A real client signing in at the center (auth: 'mojang') and logging into the online-mode server: how it ended. */
function connect(u: TestUser): Promise<{
  loggedIn: boolean;
  uuid?: string;
  username?: string;
  reason?: string;
}> {
  return new Promise((resolve) => {
    const client = mc.createClient({
      host: '127.0.0.1',
      port,
      version: VERSION,
      username: u.username,
      password: u.password,
      auth: 'mojang',
      authServer: `${c.baseUrl}/api/yggdrasil/authserver`,
      sessionServer: `${c.baseUrl}/api/yggdrasil/sessionserver`,
      profilesFolder: false,
      hideErrors: true,
    } as mc.ClientOptions);
    const onLogin = (serverSide: mc.ServerClient) => {
      if (serverSide.username !== client.username) return;
      server.off('login', onLogin);
      resolve({
        loggedIn: true,
        uuid: serverSide.uuid,
        username: serverSide.username,
      });
      client.end('done');
    };
    server.on('login', onLogin);
    const refused = (reason: unknown) => {
      server.off('login', onLogin);
      resolve({
        loggedIn: false,
        reason: reason instanceof Error ? reason.message : String(reason),
      });
    };
    client.on('error', refused);
    client.on('end', refused);
    client.on('kick_disconnect', (packet: { reason: string }) =>
      refused(packet.reason),
    );
    client.on('disconnect', (packet: { reason: string }) =>
      refused(packet.reason),
    );
  });
}

describe('a Minecraft protocol client and online-mode server, both using the center', () => {
  it('logs a player in: the server learns the profile from the center', async () => {
    const u = await player();
    const result = await connect(u);
    expect(result).toMatchObject({ loggedIn: true, username: u.profile.name });
    expect(result.uuid?.replaceAll('-', '')).toBe(u.profile.id);
  });

  it("refuses a player banned between joining and the server's check", async () => {
    const u = await player();
    beforeSessionCheck = async (username) => {
      if (username !== u.profile.name) return;
      expect(
        (
          await c.post(
            '/api/v1/auth/admin/users/ban',
            { username: u.username, banned: true },
            admin.token,
          )
        ).statusCode,
      ).toBe(200);
    };
    try {
      const result = await connect(u);
      expect(result.loggedIn).toBe(false);
      expect(result.reason).toContain('Failed to verify username');
    } finally {
      beforeSessionCheck = async () => undefined;
    }
  });

  it('refuses a banned player at sign-in', async () => {
    const u = await player();
    expect(
      (
        await c.post(
          '/api/v1/auth/admin/users/ban',
          { username: u.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    const result = await connect(u);
    expect(result).toMatchObject({
      loggedIn: false,
      reason: expect.stringContaining('账号已被封禁'),
    });
  });
});
