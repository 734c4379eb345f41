// Request shapes of the OpenID Connect comparison, identical for both servers: only the paths
// (from each one's discovery document) and the tokens differ.
import { bearer, cycling } from './load.mjs';
import { REDIRECT_URI } from './targets.mjs';

export const OIDC_TARGETS = [
  'userinfo',
  'introspection',
  'token_code',
  'refresh',
];

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const enc = (v) => encodeURIComponent(v).replace(/%20/g, '+');

/** client_secret_basic, with id and secret form-url-encoded first (RFC 6749 §2.3.1). */
export const basicAuth = (id, secret) =>
  `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;

/**
 * m: { paths, basic, access: [AT], codes: [code], refreshQueue: [RT] }. token_code spends one
 * fresh code per request (the run is as many requests as codes); refresh takes a never-used
 * refresh token from the queue and puts the rotated one from the answer back at its end, so
 * no token is presented twice and, with more families than connections, the queue never empties.
 */
export const OIDC_REQUESTS = {
  userinfo: (m) => [
    {
      method: 'GET',
      path: m.paths.userinfo,
      setupRequest: cycling(m.access, (r, t) => ({ ...r, headers: bearer(t) })),
    },
  ],
  introspection: (m) => [
    {
      method: 'POST',
      path: m.paths.introspection,
      setupRequest: cycling(m.access, (r, t) => ({
        ...r,
        headers: { ...form, authorization: m.basic },
        body: `token=${t}`,
      })),
    },
  ],
  token_code: (m) => {
    let i = 0;
    return [
      {
        method: 'POST',
        path: m.paths.token,
        setupRequest: (r) => ({
          ...r,
          headers: { ...form, authorization: m.basic },
          body: `grant_type=authorization_code&code=${enc(m.codes[i++])}&redirect_uri=${enc(REDIRECT_URI)}`,
        }),
      },
    ];
  },
  refresh: (m) => [
    {
      method: 'POST',
      path: m.paths.token,
      setupRequest: (r) => {
        const rt = m.refreshQueue.shift();
        if (rt === undefined) throw new Error('the refresh queue ran dry');
        return {
          ...r,
          headers: { ...form, authorization: m.basic },
          body: `grant_type=refresh_token&refresh_token=${enc(rt)}`,
        };
      },
      onResponse: (status, body) => {
        if (status === 200) m.refreshQueue.push(JSON.parse(body).refresh_token);
      },
    },
  ],
};
