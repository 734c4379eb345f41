// Our side of the OpenID Connect comparison: the client registered through the CLI, consent
// once per person, then codes the way a browser gets them and tokens from the token endpoint.
import { load } from './load.mjs';
import { runNode } from './proc.mjs';
import { serviceEnv } from './setup.mjs';
import { REDIRECT_URI } from './targets.mjs';

export const OIDC_CLIENT_ID = 'bench-oidc';
export const SCOPE = 'openid profile email';

/** Registers the confidential OIDC client; the CLI prints the secret once. */
export async function createOidcClient(dbUrl, secret, alg) {
  const out = await runNode(
    [
      'bin/account-center.js',
      'app',
      'create',
      '--owner',
      'bench_1',
      '--name',
      'Bench OIDC',
      '--redirect-uri',
      REDIRECT_URI,
      '--client-id',
      OIDC_CLIENT_ID,
      '--grant-types',
      'authorization_code,refresh_token',
      '--auth-method',
      'client_secret_basic',
    ],
    { ...serviceEnv(dbUrl, secret), OIDC_SIGNING_ALG: alg },
  );
  const app = JSON.parse(out.slice(out.indexOf('{')));
  if (!app.client_secret)
    throw new Error(`app create printed no client_secret: ${out}`);
  return { clientId: app.client_id, clientSecret: app.client_secret };
}

const authorizePath = (clientId, i) =>
  `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: SCOPE,
    state: `s${i}`,
    nonce: `n${i}`,
  })}`;

/** The code of a redirect to the client, or undefined. */
function codeOf(location) {
  if (!location?.startsWith(REDIRECT_URI)) return undefined;
  return new URL(location).searchParams.get('code') ?? undefined;
}

/** Runs `fn` over `items` with a few requests in flight, keeping the order of the results. */
async function pool(items, fn, width = 16) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/**
 * The first authorization of each person: authorize redirects to the consent page with a
 * ticket, the person allows, and the answer holds the redirect with the code. Returns one code
 * per person; from then on authorize answers with a code at once.
 */
export async function consentAll(service, clientId, cookies) {
  return pool(cookies, async (cookie, i) => {
    const res = await fetch(service.url + authorizePath(clientId, i), {
      headers: { cookie },
      redirect: 'manual',
    });
    await res.arrayBuffer();
    const location = res.headers.get('location') ?? '';
    if (res.status !== 302) throw new Error(`authorize answered ${res.status}`);
    const direct = codeOf(location);
    if (direct) return direct;
    const ticket = new URL(location, service.url).searchParams.get('ticket');
    if (!ticket)
      throw new Error(
        `authorize sent the browser to ${location}, not to the consent page`,
      );
    const c = await fetch(`${service.url}/oauth/consent`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ ticket, decision: 'allow' }),
    });
    const body = await c.json();
    const code = c.status === 200 ? codeOf(body.data?.redirect_to) : undefined;
    if (!code)
      throw new Error(`consent answered ${c.status}: ${JSON.stringify(body)}`);
    return code;
  });
}

/** `n` codes from GET /oauth/authorize with the session cookies of people who consented already. */
export async function issueCodes(service, clientId, cookies, n) {
  const codes = [];
  let i = 0;
  const r = await load({
    url: service.url,
    connections: 16,
    amount: n,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => {
          const k = i++;
          return {
            ...req,
            path: authorizePath(clientId, k),
            headers: { cookie: cookies[k % cookies.length] },
          };
        },
        onResponse: (status, _body, _ctx, headers) => {
          const code = status === 302 ? codeOf(headers.location) : undefined;
          if (code) codes.push(code);
        },
      },
    ],
  });
  if (codes.length !== n)
    throw new Error(
      `authorize issued ${codes.length} of ${n} codes (${r.errors - r.non2xx} socket errors)`,
    );
  return codes;
}

/** Exchanges codes at the token endpoint; returns { access, refresh } in the order of the codes. */
export async function exchangeCodes(service, basic, codes) {
  const tokens = await pool(codes, async (code) => {
    const res = await fetch(`${service.url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: basic,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
      }).toString(),
    });
    const body = await res.json();
    if (
      res.status !== 200 ||
      !body.access_token ||
      !body.refresh_token ||
      !body.id_token
    ) {
      throw new Error(
        `token endpoint answered ${res.status}: ${JSON.stringify(body)}`,
      );
    }
    return body;
  });
  return {
    access: tokens.map((t) => t.access_token),
    refresh: tokens.map((t) => t.refresh_token),
  };
}
