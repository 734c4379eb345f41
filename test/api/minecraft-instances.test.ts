import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yggdrasil from 'yggdrasil';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';
import { sharedDatabase } from '../helpers/db.js';
import { freePort } from '../helpers/net.js';
import { waitFor } from '../helpers/wait.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';

/**
 * Two instances on one database and no bus between them (docs/api.md §18.3): a join made
 * through one is checked through the other, both sign with the same key, and a ban made on
 * one refuses `hasJoined` on the other within 5 s.
 */
let first: ListeningCenter;
let second: TestApp & { baseUrl: string };
let dispose: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  const database = await sharedDatabase('ac-minecraft-instances-');
  const shared = database.url;
  dispose = database.dispose;
  first = await listeningCenter({ DATABASE_URL: shared, MINECRAFT: 'on' });
  const port = await freePort();
  const app = await createTestApp({
    DATABASE_URL: shared,
    BASE_URL: first.baseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    MINECRAFT: 'on',
  });
  await app.app.listen({ port, host: '127.0.0.1' });
  second = Object.assign(app, { baseUrl: `http://127.0.0.1:${port}` });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await dispose();
});

const rootOf = (c: { baseUrl: string }) => `${c.baseUrl}/api/yggdrasil`;
const profileName = () =>
  `p${uniqueName('')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-12)}`;

describe('Minecraft sign-in across two instances', () => {
  it('shares the signing key, honours a join made elsewhere, and refuses a banned player everywhere within 5 s', async () => {
    const [metaA, metaB] = await Promise.all(
      [first, second].map(
        async (c) =>
          (await fetch(`${rootOf(c)}/`)).json() as Promise<{
            signaturePublickey: string;
          }>,
      ),
    );
    expect(metaA!.signaturePublickey).toBe(metaB!.signaturePublickey);

    const u = await first.register();
    const admin = await first.admin();
    const profile = (
      await first.post(
        '/api/v1/auth/account/minecraft/profiles',
        { name: profileName() },
        u.token,
      )
    ).json().data;
    const signedIn = await yggdrasil({
      host: `${rootOf(first)}/authserver`,
    }).auth({ user: u.username, pass: u.password });
    await yggdrasil({ host: `${rootOf(second)}/authserver` }).validate(
      signedIn.accessToken,
    );

    const serverId = randomBytes(6).toString('hex');
    const secret = randomBytes(16);
    const key = randomBytes(32);
    await yggdrasil
      .server({ host: `${rootOf(first)}/sessionserver` })
      .join(signedIn.accessToken, profile.id, serverId, secret, key);
    const onSecond = yggdrasil.server({
      host: `${rootOf(second)}/sessionserver`,
    });
    expect(
      (await onSecond.hasJoined(profile.name, serverId, secret, key)).id,
    ).toBe(profile.id);

    expect(
      (
        await first.post(
          '/api/v1/auth/admin/users/ban',
          { username: u.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    const bannedAt = Date.now();
    await waitFor('hasJoined refused on the other instance', 5000, async () => {
      try {
        await onSecond.hasJoined(profile.name, serverId, secret, key);
        return false;
      } catch {
        return true;
      }
    });
    expect(Date.now() - bannedAt).toBeLessThan(5000);
    await expect(
      yggdrasil({ host: `${rootOf(second)}/authserver` }).validate(
        signedIn.accessToken,
      ),
    ).rejects.toThrow('Invalid token.');
  });
});
