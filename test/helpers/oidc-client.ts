import type { FastifyInstance } from 'fastify';
import * as oauth from 'oauth4webapi';
import type { TestApp, TestUser } from './app.js';
import { basicAuth, fetchJson } from './net.js';
import {
  authorizeGet,
  location,
  pagesPost,
  sessionCookie,
  ticketOf,
} from './oidc-pages.js';

/** A fetch that answers through app.inject, so relying-party libraries talk to the in-process service. */
export function injectFetch(app: FastifyInstance) {
  return async (
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const payload = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const res = await app.inject({
      method: req.method as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(payload && { payload }),
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined)
        out.set(k, Array.isArray(v) ? v.join(', ') : String(v));
    return new Response(
      [204, 304].includes(res.statusCode) ? null : res.rawPayload,
      { status: res.statusCode, headers: out },
    );
  };
}

/**
 * oauth4webapi options routing every request through the service in-process. No request
 * leaves the process, so an `http://` issuer (a service on loopback in the browser tests) is
 * allowed too.
 */
export const viaInject = (t: TestApp) => ({
  [oauth.customFetch]: injectFetch(t.app) as typeof fetch,
  [oauth.allowInsecureRequests]: true,
});

/** Discovery through oauth4webapi, exactly as a relying party does it. */
export async function discover(
  t: TestApp,
  issuer: string,
): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  return oauth.processDiscoveryResponse(
    url,
    await oauth.discoveryRequest(url, { algorithm: 'oidc', ...viaInject(t) }),
  );
}

/**
 * Runs the authorization endpoint as `user`'s browser (session cookie), consenting when asked,
 * and returns the callback URL the browser is sent to.
 */
export async function authorizeAsBrowser(
  t: TestApp,
  user: TestUser,
  params: Record<string, string>,
): Promise<URL> {
  const first = location(await authorizeGet(t, params, user.token));
  if (first.pathname !== '/authorize') return first;
  const res = await pagesPost(
    t,
    '/oauth/consent',
    { ticket: ticketOf(first), decision: 'allow' },
    user.token,
  );
  if (res.statusCode !== 200)
    throw new Error(`consent failed: ${res.statusCode} ${res.body}`);
  return new URL(res.json().data.redirect_to);
}

/**
 * GET the authorization endpoint of a listening service at `base` (the parameters, or a whole
 * URL a library built) with the session cookie of `token`; the URL it redirects to.
 */
export async function authorizeRedirect(
  base: string,
  token: string,
  request: Record<string, string> | URL,
): Promise<URL> {
  const url =
    request instanceof URL
      ? request
      : new URL(`/oauth/authorize?${new URLSearchParams(request)}`, base);
  const res = await fetch(url, {
    redirect: 'manual',
    headers: sessionCookie(token),
  });
  if (res.status !== 302)
    throw new Error(
      `expected a redirect, got ${res.status}: ${(await res.text()).slice(0, 300)}`,
    );
  return new URL(res.headers.get('location')!, base);
}

/** Allows on the consent page `page` (a redirect of authorizeRedirect) through its helper; the callback URL. */
export async function consentOverHttp(
  base: string,
  token: string,
  page: URL,
): Promise<URL> {
  const consent = await fetchJson(
    base,
    'POST',
    '/oauth/consent',
    { ticket: ticketOf(page), decision: 'allow' },
    undefined,
    sessionCookie(token),
  );
  if (consent.status !== 200)
    throw new Error(
      `consent failed: ${consent.status} ${JSON.stringify(consent.body)}`,
    );
  return new URL(consent.body.data.redirect_to);
}

/** authorizeAsBrowser over real HTTP: consents when the consent page is asked for. */
export async function authorizeOverHttp(
  base: string,
  token: string,
  request: Record<string, string> | URL,
): Promise<URL> {
  const next = await authorizeRedirect(base, token, request);
  return next.pathname === '/authorize'
    ? consentOverHttp(base, token, next)
    : next;
}

/** POST a form to the service; `basic` adds client_secret_basic credentials (form-url-encoded as RFC 6749 §2.3.1 asks). */
export function postForm(
  t: TestApp,
  url: string,
  form: Record<string, string>,
  opts: { basic?: [string, string]; headers?: Record<string, string> } = {},
) {
  const auth = opts.basic ? { authorization: basicAuth(...opts.basic) } : {};
  return t.app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(form).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...auth,
      ...opts.headers,
    },
  });
}

/**
 * The authorization code flow as a relying party runs it (PKCE, client_secret_basic), with
 * `user`'s browser consenting; returns the validated token response.
 */
export async function signInWithCode(
  t: TestApp,
  as: oauth.AuthorizationServer,
  user: TestUser,
  client: { client_id: string; client_secret?: string },
  redirectUri: string,
  scope = 'openid profile',
) {
  const verifier = oauth.generateRandomCodeVerifier();
  const callback = await authorizeAsBrowser(t, user, {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    scope,
    state: 'st',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const c = { client_id: client.client_id };
  const params = oauth.validateAuthResponse(as, c, callback, 'st');
  const res = await oauth.authorizationCodeGrantRequest(
    as,
    c,
    oauth.ClientSecretBasic(client.client_secret!),
    params,
    redirectUri,
    verifier,
    viaInject(t),
  );
  return oauth.processAuthorizationCodeResponse(as, c, res);
}
