import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The PrismarineJS client launchers' libraries are modelled on: nothing of ours is used to talk to the API.
import type yggdrasil from 'yggdrasil';
import { makePng } from '../helpers/png.js';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import { playerMaker, startYggdrasil } from './minecraft-yggdrasil-setup.js';

let c: ListeningCenter;
let root: string;
let auth: ReturnType<typeof yggdrasil>;
beforeAll(async () => {
  ({ c, root, auth } = await startYggdrasil());
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

/** The JSON of an answer, untyped as the wire is. */
async function jsonOf(res: Response | Promise<Response>): Promise<any> {
  return (await res).json();
}

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
