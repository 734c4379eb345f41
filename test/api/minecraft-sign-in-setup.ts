import { expect } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { profileName } from './minecraft-yggdrasil-setup.js';

/** What the Yggdrasil sign-in files share: the paths, a launcher's address, and the requests. */
export const Y = '/api/yggdrasil';
export const P = '/api/v1/auth/account/minecraft/profiles';
export const LAUNCHER = {
  remoteAddress: '198.51.100.23',
  headers: { 'user-agent': 'HMCL/3.6.12' },
};

/** A fresh app with Minecraft on, whose clock reads `now`. */
export function startMinecraftApp(now: () => number) {
  return createTestApp({ MINECRAFT: 'on', SITE_NAME: 'Creeper Town' }, { now });
}

export async function withProfile(
  app: TestApp,
  u: TestUser,
  name = profileName(),
): Promise<{ id: string; name: string }> {
  const res = await app.post(P, { name }, u.token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

export const authenticate = (
  app: TestApp,
  username: string,
  password: string,
) =>
  app.app.inject({
    method: 'POST',
    url: `${Y}/authserver/authenticate`,
    payload: { username, password },
    ...LAUNCHER,
  });

/** A launcher sign-in of `u` (by `login`) at the app `current()` returns: its token and profile. */
export function launcherSignIn(current: () => TestApp) {
  return async function signedIn(
    u: TestUser,
    login = u.username,
  ): Promise<{
    accessToken: string;
    selectedProfile: { id: string; name: string };
  }> {
    const res = await authenticate(current(), login, u.password);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
}
