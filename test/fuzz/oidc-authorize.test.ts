import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, pkcePair } from '../helpers/oauth.js';
import { anyString } from './arbitraries.js';
import { injectWithin, prototypeIsClean } from './harness.js';

/**
 * The authorization and end-session endpoints with arbitrary parameters, repeated or malformed,
 * with and without a session: a redirect to the registered callback or the center's own pages,
 * or an HTML page — never a 5xx, a hang, or a redirect anywhere else.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const CB = 'https://rp.fuzz.example/cb';
let t: TestApp;
let person: TestUser;
let clientId: string;

beforeAll(async () => {
  t = await createTestApp();
  person = await t.register();
  clientId = (
    await createApp(t, person, {
      redirect_uris: [CB],
      post_logout_redirect_uris: [CB],
    })
  ).client_id;
});
afterAll(async () => {
  await t?.close();
});

const encode = (v: string) =>
  [...Buffer.from(v, 'utf8')]
    .map((b) => `%${b.toString(16).padStart(2, '0')}`)
    .join('');
const names = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'max_age',
  'login_hint',
  'ticket',
  'id_token_hint',
  'post_logout_redirect_uri',
  'request',
  '__proto__',
];

describe('fuzzing the authorization and end-session endpoints', () => {
  it('answers with a safe redirect or a page', {
    timeout: 120_000,
  }, async () => {
    const good = () =>
      fc.constantFrom(
        clientId,
        CB,
        'code',
        'openid profile',
        'none',
        'login',
        'S256',
        pkcePair().challenge,
        '0',
        'x'.repeat(3000),
      );
    const value = fc.oneof(
      anyString,
      good(),
      fc.constantFrom('%', '%zz', '%00', '&', '=', '[]', ''),
    );
    const query = fc
      .array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 8 })
      .map((pairs) =>
        [
          `client_id=${clientId}`,
          ...pairs.map(([k, v]) => `${k}=${encode(v)}`),
        ].join('&'),
      );
    const path = fc.constantFrom(
      '/oauth/authorize',
      '/oauth/authorize/resume',
      '/oauth/end_session',
    );
    await fc.assert(
      fc.asyncProperty(
        path,
        query,
        fc.boolean(),
        fc.boolean(),
        async (p, qs, withSession, post) => {
          const headers: Record<string, string> = withSession
            ? { cookie: `ac_session=${person.token}` }
            : {};
          const res = post
            ? await injectWithin(t.app, 5000, {
                method: 'POST',
                url: p === '/oauth/authorize/resume' ? `${p}?${qs}` : p,
                payload: qs,
                headers: {
                  ...headers,
                  'content-type': 'application/x-www-form-urlencoded',
                },
              })
            : await injectWithin(t.app, 5000, {
                method: 'GET',
                url: `${p}?${qs}`,
                headers,
              });
          if (res.statusCode >= 500)
            throw new Error(
              `${p}?${qs}: ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
          if (res.statusCode === 302) {
            const to = String(res.headers.location);
            if (
              to !== CB &&
              !to.startsWith(`${CB}?`) &&
              !(to.startsWith('/') && !to.startsWith('//'))
            )
              throw new Error(`${p}?${qs}: redirected to ${to}`);
          }
          if (!prototypeIsClean())
            throw new Error(`${p}?${qs}: Object.prototype polluted`);
        },
      ),
      { numRuns: RUNS * 3, interruptAfterTimeLimit: 60_000 },
    );
    expect((await t.get('/healthz')).statusCode).toBe(200);
  });
});
