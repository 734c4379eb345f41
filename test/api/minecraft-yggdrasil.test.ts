import { createVerify, randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The PrismarineJS client launchers' libraries are modelled on: nothing of ours is used to talk to the API.
import yggdrasil from 'yggdrasil';
import { uniqueName, type TestUser } from '../helpers/app.js';
import { makePng } from '../helpers/png.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';

let c: ListeningCenter;
let root: string;
let auth: ReturnType<typeof yggdrasil>;
let session: ReturnType<typeof yggdrasil.server>;
beforeAll(async () => {
  c = await listeningCenter({ MINECRAFT: 'on', MINECRAFT_MAX_PROFILES: '2' });
  root = `${c.baseUrl}/api/yggdrasil`;
  auth = yggdrasil({ host: `${root}/authserver` });
  session = yggdrasil.server({ host: `${root}/sessionserver` });
});
afterAll(async () => {
  await c.close();
});

const profileName = () =>
  `p${uniqueName('')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(-12)}`;
const post = (path: string, body: unknown) =>
  fetch(`${root}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });

async function player(
  opts: { profiles?: number } = {},
): Promise<TestUser & { profiles: Array<{ id: string; name: string }> }> {
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
}

/** A join by the client and the game server's check, as minecraft-protocol does them, with a fresh server id. */
async function joinAndCheck(
  accessToken: string,
  profile: { id: string; name: string },
) {
  const serverId = randomBytes(6).toString('hex');
  const secret = randomBytes(16);
  const key = randomBytes(32);
  await session.join(accessToken, profile.id, serverId, secret, key);
  return {
    check: () => session.hasJoined(profile.name, serverId, secret, key),
  };
}

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

describe('sign-in rules', () => {
  it('takes the password only without a second factor; a game token always', async () => {
    const u = await player();
    const setup = (
      await c.post(
        '/api/v1/auth/account/totp/setup',
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    expect(
      (
        await c.post(
          '/api/v1/auth/account/totp/enable',
          { code: await generate({ secret: setup.secret }) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    await expect(
      auth.auth({ user: u.username, pass: u.password }),
    ).rejects.toThrow('Invalid credentials. Invalid username or password.');
    const game = (
      await c.post('/api/v1/auth/game_token', undefined, u.token)
    ).json().access_token;
    const signedIn = await auth.auth({ user: u.username, pass: game });
    expect(signedIn.selectedProfile).toEqual(u.profiles[0]);
    // Someone else's game token is not this account's password.
    const other = await player();
    const theirs = (
      await c.post('/api/v1/auth/game_token', undefined, other.token)
    ).json().access_token;
    await expect(auth.auth({ user: u.username, pass: theirs })).rejects.toThrow(
      'Invalid credentials.',
    );
    // A first-party token is not a game token.
    await expect(
      auth.auth({ user: other.username, pass: other.token }),
    ).rejects.toThrow('Invalid credentials.');
    const audit = await c.runtime.storage.audit.list(
      { action: 'minecraft.authenticate', actor: u.username },
      0,
      10,
    );
    expect(audit.total).toBe(1);
  });

  it('counts failures on the login limits: the right password is refused once they are spent', async () => {
    const u = await player();
    for (let i = 0; i < 10; i++)
      await expect(
        auth.auth({ user: u.username, pass: `wrong ${i}` }),
      ).rejects.toThrow('Invalid credentials.');
    await expect(
      auth.auth({ user: u.username, pass: u.password }),
    ).rejects.toThrow('Invalid credentials.');
  });

  it('kills tokens with a ban (hasJoined refuses), a password change, logout everywhere and deletion', async () => {
    const admin = await c.admin();
    const banned = await player();
    const t1 = await auth.auth({
      user: banned.username,
      pass: banned.password,
    });
    const joined = await joinAndCheck(t1.accessToken, banned.profiles[0]!);
    await joined.check();
    expect(
      (
        await c.post(
          '/api/v1/auth/admin/users/ban',
          { username: banned.username, banned: true },
          admin.token,
        )
      ).statusCode,
    ).toBe(200);
    await expect(joined.check()).rejects.toThrow();
    await expect(auth.validate(t1.accessToken)).rejects.toThrow(
      'Invalid token.',
    );
    await expect(
      auth.auth({ user: banned.username, pass: banned.password }),
    ).rejects.toThrow();

    const changer = await player();
    const t2 = await auth.auth({
      user: changer.username,
      pass: changer.password,
    });
    const changed = await c.post(
      '/api/v1/auth/account/password',
      {
        current_password: changer.password,
        new_password: 'a brand new password',
        end_other_sessions: false,
      },
      changer.token,
    );
    expect(changed.statusCode).toBe(200);
    await expect(auth.validate(t2.accessToken)).rejects.toThrow(
      'Invalid token.',
    );
    await auth.auth({ user: changer.username, pass: 'a brand new password' });

    const leaver = await player();
    const t3 = await auth.auth({
      user: leaver.username,
      pass: leaver.password,
    });
    expect(
      (await c.post('/api/v1/auth/logout', { all: true }, leaver.token))
        .statusCode,
    ).toBe(200);
    await expect(auth.validate(t3.accessToken)).rejects.toThrow(
      'Invalid token.',
    );

    const quitter = await player();
    const t4 = await auth.auth({
      user: quitter.username,
      pass: quitter.password,
    });
    expect(
      (
        await c.post(
          '/api/v1/auth/account/delete',
          { current_password: quitter.password },
          quitter.token,
        )
      ).statusCode,
    ).toBe(200);
    await expect(auth.validate(t4.accessToken)).rejects.toThrow(
      'Invalid token.',
    );
    // The profile name is free again.
    const next = await c.register();
    expect(
      (
        await c.post(
          '/api/v1/auth/account/minecraft/profiles',
          { name: quitter.profiles[0]!.name },
          next.token,
        )
      ).statusCode,
    ).toBe(200);
  });
});

describe('texture endpoints of the specification', () => {
  const textureUrl = (id: string, type: string) =>
    `${root}/api/user/profile/${id}/${type}`;
  const put = (
    token: string,
    id: string,
    type: string,
    file: Buffer,
    model = '',
  ) => {
    const body = new FormData();
    body.set('model', model);
    body.set('file', new Blob([file], { type: 'image/png' }), 'texture.png');
    return fetch(textureUrl(id, type), {
      method: 'PUT',
      body,
      headers: { authorization: `Bearer ${token}` },
    });
  };

  it('uploads and deletes with a launcher access token; the profile then carries the texture', async () => {
    const u = await player();
    const [profile] = u.profiles as [{ id: string; name: string }];
    const { accessToken } = await auth.auth({
      user: u.username,
      pass: u.password,
    });
    const skin = makePng(64, 64);
    expect(
      (await put(accessToken, profile.id, 'skin', skin, 'slim')).status,
    ).toBe(204);
    const queried = await jsonOf(
      fetch(`${root}/sessionserver/session/minecraft/profile/${profile.id}`),
    );
    const textures = JSON.parse(
      Buffer.from(
        queried.properties.find((p: { name: string }) => p.name === 'textures')
          .value,
        'base64',
      ).toString(),
    );
    expect(textures.textures.SKIN.metadata).toEqual({ model: 'slim' });
    const served = await fetch(textures.textures.SKIN.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(skin)).toBe(true);

    const bad = await put(
      accessToken,
      profile.id,
      'skin',
      Buffer.from('not a png'),
    );
    expect([bad.status, (await jsonOf(bad)).error]).toEqual([
      400,
      'IllegalArgumentException',
    ]);
    expect((await put('not-a-token', profile.id, 'skin', skin)).status).toBe(
      401,
    );
    const stranger = await player();
    const theirs = await auth.auth({
      user: stranger.username,
      pass: stranger.password,
    });
    expect(
      (await put(theirs.accessToken, profile.id, 'skin', skin)).status,
    ).toBe(403);

    const removed = await fetch(textureUrl(profile.id, 'skin'), {
      method: 'DELETE',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(removed.status).toBe(204);
    const after = await jsonOf(
      fetch(`${root}/sessionserver/session/minecraft/profile/${profile.id}`),
    );
    const emptied = JSON.parse(
      Buffer.from(
        after.properties.find((p: { name: string }) => p.name === 'textures')
          .value,
        'base64',
      ).toString(),
    );
    expect(emptied.textures).toEqual({});
  });
});

describe('malformed requests', () => {
  it('answer 4xx in the protocol format, never 500', async () => {
    const cases: Array<[string, unknown]> = [
      ['/authserver/authenticate', { username: 'a\u0000b', password: 'x' }],
      ['/authserver/authenticate', { username: 5, password: 'x' }],
      [
        '/authserver/refresh',
        { accessToken: 'x\u0000', selectedProfile: { id: 'zz' } },
      ],
      ['/authserver/validate', {}],
      [
        '/sessionserver/session/minecraft/join',
        { accessToken: 'x', selectedProfile: '\u0000', serverId: 'y' },
      ],
      ['/api/profiles/minecraft', { not: 'an array' }],
      ['/api/profiles/minecraft', ['a\u0000']],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, body);
      expect(
        res.status,
        `${path} ${JSON.stringify(body)}`,
      ).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof (await jsonOf(res)).error).toBe('string');
    }
    expect(
      (
        await fetch(
          `${root}/sessionserver/session/minecraft/hasJoined?username=a%00&serverId=b`,
        )
      ).status,
    ).toBe(400);
    // Not an id at all: no such profile, without reaching the database.
    expect(
      (await fetch(`${root}/sessionserver/session/minecraft/profile/%00zz`))
        .status,
    ).toBe(204);
    expect(
      (
        await fetch(
          `${root}/sessionserver/session/minecraft/hasJoined?username=a&serverId=never`,
        )
      ).status,
    ).toBe(204);
  });
});
