import { expect } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { type authorizeGet, location } from '../helpers/oidc-pages.js';

/** What the authorization endpoint files share: a confidential client at ISSUER and its requests. */
export const ISSUER = 'https://id.example.com';
export const CB = 'https://rp.example.com/cb';

/** A fresh app whose clock reads `now`, with a developer and their client `conf`. */
export async function startAuthorizeApp(now: () => number) {
  const t = await createTestApp({ BASE_URL: ISSUER }, { now });
  const dev = await t.register();
  const conf = await createApp(t, dev, {
    redirect_uris: [CB],
    scopes: ['forum.read'],
  });
  return { t, dev, conf };
}

/** The authorization request parameters for the client `conf()` returns, with these extra. */
export const authorizeBase =
  (conf: () => CreatedApp) =>
  (extra: Record<string, string> = {}) => ({
    response_type: 'code',
    client_id: conf().client_id,
    redirect_uri: CB,
    scope: 'openid profile',
    state: 'st-1',
    ...extra,
  });

/** Checks an error redirect: the callback with error, error_description, state and iss. */
export function expectErrorRedirect(
  res: Awaited<ReturnType<typeof authorizeGet>>,
  error: string,
  redirect = CB,
  state: string | null = 'st-1',
) {
  const url = location(res);
  expect(url.origin + url.pathname).toBe(redirect);
  expect(url.searchParams.get('error')).toBe(error);
  expect(url.searchParams.get('error_description')).toMatch(
    /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/,
  );
  expect(url.searchParams.get('state')).toBe(state);
  expect(url.searchParams.get('iss')).toBe(ISSUER);
  expect(url.searchParams.has('code')).toBe(false);
}
