/** A relying party driven by openid-client v6 against the center, with Chromium as the person's browser. */
import { createServer, type Server } from 'node:http';
import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import { centerAndBrowser, newPage, type Center } from './browser.js';

/**
 * The relying party's own web server: its callback and post-logout pages only have to exist,
 * so the browser visibly lands there (the test reads the address it landed on).
 */
export const RP_HOST = '127.0.0.1';
let rpOrigin = '';
let rpServer: Server | undefined;

export async function startRelyingPartyPages(): Promise<void> {
  rpServer = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<p id="rp">relying party</p>'),
  );
  await new Promise<void>((resolve) => rpServer!.listen(0, RP_HOST, resolve));
  rpOrigin = `http://${RP_HOST}:${(rpServer.address() as { port: number }).port}`;
}

export async function stopRelyingPartyPages(): Promise<void> {
  await new Promise<void>((resolve) =>
    rpServer ? rpServer.close(() => resolve()) : resolve(),
  );
}

/**
 * The center and a browser as `centerAndBrowser` gives them, with the relying party's pages up
 * and one developer registered, shared by a test file's tests.
 */
export function centerWithRelyingParty() {
  const env = centerAndBrowser() as ReturnType<typeof centerAndBrowser> & {
    developer: TestUser;
  };
  beforeAll(async () => {
    await startRelyingPartyPages();
    env.developer = await env.center.register();
  });
  afterAll(stopRelyingPartyPages);
  return env;
}

export const rp = {
  get origin() {
    return rpOrigin;
  },
  get callback() {
    return `${rpOrigin}/cb`;
  },
  get loggedOut() {
    return `${rpOrigin}/logged-out`;
  },
};

export type AuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
}

/** Registers a client through the apps API as `owner`. */
export async function registerClient(
  center: Center,
  owner: TestUser,
  method: AuthMethod,
  extra: Record<string, unknown> = {},
): Promise<RegisteredClient> {
  const body: Record<string, unknown> = {
    display_name: `RP ${method}`,
    redirect_uris: [rp.callback],
    post_logout_redirect_uris: [rp.loggedOut],
    client_type: method === 'none' ? 'public' : 'confidential',
    ...extra,
  };
  if (method !== 'none') body.token_endpoint_auth_method = method;
  const res = await center.post('/api/v1/auth/apps', body, owner.token);
  if (res.statusCode !== 200)
    throw new Error(`create app failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** The library's configuration from nothing but the issuer URL and the client's credentials. */
export async function discover(
  center: Center,
  c: RegisteredClient,
  method: AuthMethod,
): Promise<client.Configuration> {
  const auth =
    method === 'none'
      ? client.None()
      : method === 'client_secret_post'
        ? client.ClientSecretPost(c.client_secret)
        : client.ClientSecretBasic(c.client_secret);
  return client.discovery(
    new URL(center.baseUrl),
    c.client_id,
    undefined,
    auth,
    { execute: [client.allowInsecureRequests] },
  );
}

export interface Attempt {
  url: URL;
  verifier: string;
  nonce: string;
  state: string;
}

/** An authorization request with PKCE, nonce and state made by the library. */
export async function newAttempt(
  config: client.Configuration,
  params: Record<string, string> = {},
): Promise<Attempt> {
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: rp.callback,
    scope: 'openid profile email offline_access',
    nonce,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...params,
  });
  return { url, verifier, nonce, state };
}

/** Waits for the browser to land on the relying party and returns that address. */
export async function landed(page: Page, path = '/cb'): Promise<URL> {
  await page.waitForURL((u) => u.origin === rp.origin && u.pathname === path);
  return new URL(page.url());
}

/** Fills the sign-in form the authorization endpoint sent the browser to. */
export async function signInOnForm(page: Page, user: TestUser): Promise<void> {
  await page.getByLabel('用户名或邮箱').fill(user.username);
  await page.getByLabel('密码').fill(user.password);
  await page.getByRole('button', { name: '登录', exact: true }).first().click();
}

/** The code exchange, with state, PKCE, nonce and ID-token checks all done by the library. */
export function redeem(
  config: client.Configuration,
  callback: URL,
  attempt: Attempt,
) {
  return client.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: attempt.verifier,
    expectedNonce: attempt.nonce,
    expectedState: attempt.state,
  });
}

/**
 * A new client of `env`'s developer using `method`, the library's configuration for it, a new
 * person and a fresh browser profile (no session at the center).
 */
export async function newClientAndPerson(
  env: ReturnType<typeof centerWithRelyingParty>,
  method: AuthMethod,
  extra: Record<string, unknown> = {},
) {
  const registered = await registerClient(
    env.center,
    env.developer,
    method,
    extra,
  );
  const config = await discover(env.center, registered, method);
  const person = await env.center.register();
  const { context, page } = await newPage(env.browser);
  return { registered, config, person, context, page };
}
