import { generate } from 'otplib';
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
let auth: ReturnType<typeof yggdrasil>;
let session: ReturnType<typeof yggdrasil.server>;
beforeAll(async () => {
  ({ c, auth, session } = await startYggdrasil());
});
afterAll(async () => {
  await c.close();
});

const player = playerMaker(() => c);
const joinAndCheck = joinMaker(() => session);

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
