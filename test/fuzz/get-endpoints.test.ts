import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { anyString } from './arbitraries.js';
import { injectWithin, prototypeIsClean } from './harness.js';

/**
 * GET routes with arbitrary query strings and paths: JSON routes answer an envelope, pages
 * answer HTML; nothing answers 5xx or hangs.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
let t: TestApp;
let admin: TestUser;
let paths: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.admin();
  const doc = (
    t.app as unknown as {
      swagger(): { paths?: Record<string, Record<string, unknown>> };
    }
  ).swagger();
  paths = Object.entries(doc.paths ?? {})
    .filter(([p, ops]) => ops.get && !p.startsWith('/docs') && !p.includes('{'))
    .map(([p]) => p);
  paths.push(
    '/authorize',
    '/api/v1/auth/admin/audit',
    '/api/v1/auth/admin/users',
    '/api/v1/auth/apps',
    '/api/v1/auth/me',
  );
  paths = [...new Set(paths)];
});
afterAll(async () => {
  await t?.close();
});

/** Percent-encodes every byte (lone surrogates become U+FFFD, as a browser would send them). */
const encode = (v: string) =>
  [...Buffer.from(v, 'utf8')]
    .map((b) => `%${b.toString(16).padStart(2, '0')}`)
    .join('');
const queryValue = fc.oneof(
  anyString,
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '1e9',
    '999999999999',
    'NaN',
    '%',
    '%zz',
    '%00',
    '&',
    '=',
    '[]',
  ),
);
/** Undoes the escaping of `%`, so malformed escapes such as `%zz` or `%` reach the server. */
const decodeLoosely = (qs: string) => qs.replace(/%25/g, '%');
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'q',
        'page',
        'action',
        'actor',
        'target',
        'client_id',
        'redirect_uri',
        'state',
        'scope',
        'code_challenge',
        '__proto__',
        'constructor',
        'x',
      ),
      queryValue,
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encode(v)}`).join('&'));

describe('fuzzing GET routes', () => {
  it('answers any query with a page or an envelope, never a 5xx or a hang', {
    timeout: 120_000,
  }, async () => {
    expect(paths.length).toBeGreaterThan(5);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        query,
        fc.boolean(),
        fc.boolean(),
        async (path, qs, authed, raw) => {
          const url = `${path}?${raw ? decodeLoosely(qs) : qs}`;
          const res = await injectWithin(t.app, 5000, {
            method: 'GET',
            url,
            headers: authed ? { authorization: `Bearer ${admin.token}` } : {},
          });
          if (res.statusCode >= 500)
            throw new Error(
              `${url}: ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
          const type = String(res.headers['content-type'] ?? '');
          if (type.startsWith('application/json')) {
            const b = res.json();
            // The standard endpoints answer RFC 6749 / 6750 errors; the rest the v1 envelope.
            const standard = !path.startsWith('/api/');
            const wellFormed = standard
              ? typeof b.error === 'string' || b.ok === false
              : b.ok === false && typeof b.msg === 'string';
            if (res.statusCode >= 400 && !wellFormed)
              throw new Error(`${url}: not a well-formed failure ${res.body}`);
          }
          if (!prototypeIsClean())
            throw new Error(`${url}: Object.prototype polluted`);
        },
      ),
      { numRuns: RUNS * 3, interruptAfterTimeLimit: 60_000 },
    );
    expect((await t.get('/healthz')).statusCode).toBe(200);
  });
});
