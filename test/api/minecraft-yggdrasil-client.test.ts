import { createVerify, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The PrismarineJS client launchers' libraries are modelled on: nothing of ours is used to talk to the API.
import type yggdrasil from 'yggdrasil';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import {
  joinMaker,
  playerMaker,
  startYggdrasil,
} from './minecraft-yggdrasil-setup.js';

let c: ListeningCenter;
let root: string;
let auth: ReturnType<typeof yggdrasil>;
let session: ReturnType<typeof yggdrasil.server>;
beforeAll(async () => {
  ({ c, root, auth, session } = await startYggdrasil());
});
afterAll(async () => {
  await c.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${root}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

const player = playerMaker(() => c);
const joinAndCheck = joinMaker(() => session);

/** The JSON of an answer, untyped as the wire is. */
async function jsonOf(res: Response | Promise<Response>): Promise<any> {
  return (await res).json();
}

function verifies(
  publicKeyPem: string,
  value: string,
  signature: string,
): boolean {
  return createVerify('RSA-SHA1')
    .update(value)
    .verify(publicKeyPem, signature, 'base64');
}

describe('Yggdrasil API with the yggdrasil client', () => {
  it('publishes metadata with the signature key at the API root', async () => {
    const res = await fetch(`${root}/`);
    expect(res.headers.get('x-authlib-injector-api-location')).toBe(
      '/api/yggdrasil/',
    );
    const meta = (await jsonOf(res)) as any;
    expect(meta.meta).toMatchObject({
      serverName: expect.any(String),
      implementationName: 'account-center',
      'feature.non_email_login': true,
      links: { homepage: `${c.baseUrl}/`, register: `${c.baseUrl}/register` },
    });
    expect(meta.skinDomains).toEqual(['127.0.0.1']);
    expect(meta.signaturePublickey).toMatch(
      /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/,
    );
  });

  it('authenticates, validates, refreshes, joins, checks the join with signed textures, invalidates and signs out', async () => {
    const u = await player();
    const [profile] = u.profiles as [{ id: string; name: string }];
    const signedIn = await auth.auth({
      user: u.username,
      pass: u.password,
      requestUser: true,
    });
    expect(signedIn.selectedProfile).toEqual(profile);
    expect(signedIn.availableProfiles).toEqual([profile]);
    expect(signedIn.user.id).toMatch(/^[0-9a-f]{32}$/);
    await auth.validate(signedIn.accessToken);

    // The client checks the client token came back and resolves with the whole answer.
    const refreshed = (
      await auth.refresh(signedIn.accessToken, signedIn.clientToken)
    ).accessToken;
    expect(refreshed).not.toBe(signedIn.accessToken);
    await expect(auth.validate(signedIn.accessToken)).rejects.toThrow(
      'Invalid token.',
    );
    await auth.validate(refreshed);

    const joined = await joinAndCheck(refreshed, profile);
    const checked = await joined.check();
    expect([checked.id, checked.name]).toEqual([profile.id, profile.name]);
    const { signaturePublickey } = await jsonOf(fetch(`${root}/`));
    const textures = checked.properties.find(
      (p: { name: string }) => p.name === 'textures',
    );
    expect(
      verifies(signaturePublickey, textures.value, textures.signature),
    ).toBe(true);
    expect(
      verifies(signaturePublickey, `${textures.value}x`, textures.signature),
    ).toBe(false);
    expect(
      JSON.parse(Buffer.from(textures.value, 'base64').toString()),
    ).toMatchObject({ profileId: profile.id, profileName: profile.name });
    // A server id nobody joined, or the wrong name, is not a join.
    await expect(
      session.hasJoined(
        profile.name,
        'other',
        randomBytes(16),
        randomBytes(32),
      ),
    ).rejects.toThrow();

    await auth.invalidate(refreshed, signedIn.clientToken);
    await expect(auth.validate(refreshed)).rejects.toThrow('Invalid token.');

    const a = await auth.auth({ user: u.email, pass: u.password });
    const b = await auth.auth({ user: profile.name, pass: u.password });
    await auth.signout(u.username, u.password);
    for (const t of [a.accessToken, b.accessToken])
      await expect(auth.validate(t)).rejects.toThrow('Invalid token.');
    await expect(auth.signout(u.username, 'wrong password')).rejects.toThrow(
      'Invalid credentials. Invalid username or password.',
    );
  });

  it('refuses a wrong password in the format of the specification', async () => {
    const u = await player();
    const res = await post('/authserver/authenticate', {
      username: u.username,
      password: 'not it',
      agent: { name: 'Minecraft', version: 1 },
    });
    expect([res.status, await jsonOf(res)]).toEqual([
      403,
      {
        error: 'ForbiddenOperationException',
        errorMessage: 'Invalid credentials. Invalid username or password.',
      },
    ]);
    const missing = await post('/authserver/authenticate', {
      username: u.username,
    });
    expect([missing.status, (await jsonOf(missing)).error]).toEqual([
      400,
      'IllegalArgumentException',
    ]);
  });

  it('lets a player with two profiles pick one by refresh', async () => {
    const u = await player({ profiles: 2 });
    const signedIn = await auth.auth({ user: u.username, pass: u.password });
    expect(signedIn.selectedProfile).toBeUndefined();
    expect(signedIn.availableProfiles).toHaveLength(2);
    const picked = u.profiles[1]!;
    const res = await post('/authserver/refresh', {
      accessToken: signedIn.accessToken,
      clientToken: signedIn.clientToken,
      selectedProfile: picked,
    });
    const body = await jsonOf(res);
    expect([res.status, body.selectedProfile]).toEqual([200, picked]);
    const again = await post('/authserver/refresh', {
      accessToken: body.accessToken,
      clientToken: signedIn.clientToken,
      selectedProfile: u.profiles[0],
    });
    expect([again.status, (await jsonOf(again)).errorMessage]).toEqual([
      400,
      'Access token already has a profile assigned.',
    ]);
    const stranger = await player();
    const other = await auth.auth({
      user: stranger.username,
      pass: stranger.password,
    });
    await expect(
      session.join(
        other.accessToken,
        picked.id,
        'x',
        randomBytes(16),
        randomBytes(32),
      ),
    ).rejects.toThrow('Invalid token.');
  });

  it('answers profile queries by id (signed on request) and by name', async () => {
    const u = await player();
    const [profile] = u.profiles as [{ id: string; name: string }];
    const unsigned = await jsonOf(
      fetch(`${root}/sessionserver/session/minecraft/profile/${profile.id}`),
    );
    expect(
      unsigned.properties.every(
        (p: { signature?: string }) => p.signature === undefined,
      ),
    ).toBe(true);
    const signed = await jsonOf(
      fetch(
        `${root}/sessionserver/session/minecraft/profile/${profile.id}?unsigned=false`,
      ),
    );
    const { signaturePublickey } = await jsonOf(fetch(`${root}/`));
    for (const p of signed.properties)
      expect(verifies(signaturePublickey, p.value, p.signature)).toBe(true);
    expect(
      (
        await fetch(
          `${root}/sessionserver/session/minecraft/profile/${'0'.repeat(32)}`,
        )
      ).status,
    ).toBe(204);
    const found = await jsonOf(
      post('/api/profiles/minecraft', [
        profile.name.toUpperCase(),
        'nobody_here',
      ]),
    );
    expect(found).toEqual([profile]);
    expect(
      (
        await post(
          '/api/profiles/minecraft',
          Array.from({ length: 11 }, (_, i) => `n${i}`),
        )
      ).status,
    ).toBe(403);
  });
});
