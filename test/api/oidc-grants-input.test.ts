import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createApp } from '../helpers/oauth.js';
import { postForm } from '../helpers/oidc-client.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
let t: TestApp;
const clock = Date.now();

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER }, { now: () => clock });
});
afterAll(async () => {
  await t.close();
});

describe('throttling', () => {
  it('wrong secrets and codes count per client and address like the seed exchange; then 429, other clients unaffected', async () => {
    const t2 = await createTestApp({
      BASE_URL: ISSUER,
      LIMIT_EXCHANGE_PAIR: '3/300',
    });
    try {
      const owner = await t2.register();
      const a = await createApp(t2, owner, { redirect_uris: [CB] });
      const b = await createApp(t2, owner, { redirect_uris: [CB] });
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push(
          (
            await postForm(
              t2,
              '/oauth/token',
              { grant_type: 'refresh_token', refresh_token: 'x' },
              { basic: [a.client_id, i === 0 ? 'wrong' : a.client_secret!] },
            )
          ).statusCode,
        );
      expect(codes).toEqual([401, 400, 400]);
      const blocked = await postForm(
        t2,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: 'x' },
        { basic: [a.client_id, a.client_secret!] },
      );
      expect([blocked.statusCode, blocked.headers['cache-control']]).toEqual([
        429,
        'no-store',
      ]);
      expect(typeof blocked.json().error).toBe('string');
      expect(
        (
          await postForm(
            t2,
            '/oauth/token',
            { grant_type: 'refresh_token', refresh_token: 'x' },
            { basic: [b.client_id, b.client_secret!] },
          )
        ).statusCode,
      ).toBe(400);
    } finally {
      await t2.close();
    }
  });
});

describe('bad input never answers 500', () => {
  const paths = [
    '/oauth/token',
    '/oauth/revoke',
    '/oauth/introspect',
    '/oauth/device_authorization',
    '/oauth/userinfo',
  ];
  const names = [
    'grant_type',
    'code',
    'refresh_token',
    'client_id',
    'client_secret',
    'redirect_uri',
    'code_verifier',
    'scope',
    'token',
    'token_type_hint',
    'device_code',
    'access_token',
  ];
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom(
      '\u0000',
      'a\u0000b',
      '%00',
      'x'.repeat(70_000),
      '💥',
      'authorization_code',
      'refresh_token',
      'client_credentials',
      DEVICE,
      '__proto__',
      'a.b.c',
      'eyJhbGciOiJub25lIn0.e30.',
    ),
  );
  const headerValue = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      'Basic',
      'Basic !!!',
      'Basic Og==',
      `Basic ${Buffer.from('%zz:%zz').toString('base64')}`,
      'Bearer',
      'Bearer a.b.c',
      'Bearer \u00ff',
    ),
    fc.string(),
  );

  it('random forms, JSON of odd types, NUL bytes and huge values: always a 4xx (or 200) with an RFC error body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.dictionary(
          fc.constantFrom(...names),
          fc.oneof(value, fc.array(value, { maxLength: 3 })),
        ),
        headerValue,
        fc.boolean(),
        async (path, fields, authorization, asJson) => {
          const form = new URLSearchParams();
          for (const [k, v] of Object.entries(fields))
            for (const one of [v].flat()) form.append(k, one);
          const res = await t.app.inject({
            method: 'POST',
            url: path,
            payload: asJson ? JSON.stringify(fields) : form.toString(),
            headers: {
              'content-type': asJson
                ? 'application/json'
                : 'application/x-www-form-urlencoded',
              ...(authorization !== undefined &&
              /^[\x20-\x7e]*$/.test(authorization)
                ? { authorization }
                : {}),
            },
          });
          expect(
            res.statusCode,
            `${path} ${res.body.slice(0, 200)}`,
          ).toBeLessThan(500);
          if (res.statusCode >= 400)
            expect(typeof res.json().error).toBe('string');
        },
      ),
      { numRuns: 150 },
    );
  });
});
