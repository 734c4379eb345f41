// The request mixes of each target. Every target gets the same connections and duration.
import { bearer, cycling } from './load.mjs';
import { PASSWORD, usernameOf } from './seed.mjs';

const json = { 'content-type': 'application/json' };
export const ORIGIN = 'https://spa.bench.test';
export const REDIRECT_URI = 'https://spa.bench.test/callback';

/** ctx: { tokens, centerToken(s), userIds, app: { client_id, client_secret } } */
export const TARGETS = {
  me: (ctx) => [
    {
      method: 'GET',
      path: '/api/v1/auth/me',
      setupRequest: cycling(ctx.tokens, (r, t) => ({
        ...r,
        headers: bearer(t),
      })),
    },
  ],
  /** OpenID Connect UserInfo with RFC 9068 access tokens of 1,000 people, one per request in turn. */
  userinfo: (ctx) => [
    {
      method: 'GET',
      path: '/oauth/userinfo',
      setupRequest: cycling(ctx.oidcAccess, (r, t) => ({
        ...r,
        headers: bearer(t),
      })),
    },
  ],
  refresh: (ctx) => [
    {
      method: 'POST',
      path: '/api/v1/auth/refresh',
      setupRequest: cycling(ctx.tokens, (r, t) => ({
        ...r,
        headers: bearer(t),
      })),
    },
  ],
  client_info: (ctx) => [
    {
      method: 'POST',
      path: '/api/v1/auth/client_info',
      headers: json,
      body: JSON.stringify({
        client_id: ctx.app.client_id,
        redirect_uri: REDIRECT_URI,
      }),
    },
  ],
  cors_preflight: () => [
    {
      method: 'OPTIONS',
      path: '/api/v1/auth/me',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    },
  ],
  login: (ctx) => [
    {
      method: 'POST',
      path: '/api/v1/auth/login',
      setupRequest: cycling(ctx.userIds, (r, id) => ({
        ...r,
        headers: json,
        body: JSON.stringify({ username: usernameOf(id), password: PASSWORD }),
      })),
    },
  ],
  /** Issues codes and keeps each one for `exchange`. */
  authorize: (ctx) => [
    {
      method: 'POST',
      path: '/api/v1/auth/authorize',
      setupRequest: cycling(ctx.centerTokens, (r, t) => ({
        ...r,
        headers: { ...json, ...bearer(t) },
        body: JSON.stringify({
          client_id: ctx.app.client_id,
          redirect_uri: REDIRECT_URI,
          state: 'bench',
        }),
      })),
      onResponse: (status, body) => {
        if (status === 200) ctx.codes.push(JSON.parse(body).data.code);
      },
    },
  ],
  /** One fresh code per request, taken from those `authorize` issued just before. */
  exchange: (ctx) => {
    let i = 0;
    return [
      {
        method: 'POST',
        path: '/api/v1/auth/exchange',
        headers: json,
        setupRequest: (r) => ({
          ...r,
          body: JSON.stringify({
            client_id: ctx.app.client_id,
            client_secret: ctx.app.client_secret,
            code: ctx.codes[i++],
            redirect_uri: REDIRECT_URI,
          }),
        }),
      },
    ];
  },
};

/** Targets that need the applications API (apps, authorize, exchange, CORS). */
export const NEEDS_APP = new Set([
  'client_info',
  'cors_preflight',
  'authorize',
  'exchange',
]);
