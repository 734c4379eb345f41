import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { bodyText, contentTypes } from './arbitraries.js';
import {
  CONTRACT_POST_PATHS,
  assertAnswerOf,
  assertEnvelope,
  assertStandardAnswer,
  injectWithin,
  postRoutes,
  prototypeIsClean,
  type PostRoute,
} from './harness.js';
import { plausibleFor, SHORT_VALID } from './post-values.js';

/**
 * Property: whatever arrives at a POST endpoint — any JSON, wrong types, huge or odd unicode
 * strings, deep nesting, prototype-pollution keys, broken JSON, other content types, any
 * Bearer — the answer is a 200 envelope or a 4xx `{ok:false,msg}`, in bounded time, and the
 * process stays healthy and unpolluted.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const ANSWER_WITHIN_MS = 5000;

let t: TestApp;
let user: TestUser;
let admin: TestUser;
let victim: TestUser;
const apps: string[] = [];
let routes: PostRoute[] = [];

beforeAll(async () => {
  t = await createTestApp();
  user = await t.register();
  admin = await t.admin();
  // A password of its own: the fuzzer offers it to every `password` field, and the drivers'
  // accounts must not be deleted through account/delete with their own password.
  victim = await t.register({ password: 'victim password 123' });
  for (const client_type of ['confidential', 'public']) {
    const res = await t.post(
      '/api/v1/auth/apps',
      {
        display_name: 'Fuzz',
        redirect_uris: ['https://example.com/cb'],
        client_type,
      },
      user.token,
    );
    if (res.statusCode === 200) apps.push(res.json().data.client_id);
  }
  routes = postRoutes(t.app);
});
afterAll(async () => {
  await t?.close();
});

type Who = 'none' | 'user' | 'admin' | 'garbage' | 'third-party' | 'alg-none';

async function bearerFor(who: Who): Promise<string | undefined> {
  const { services, storage, config } = t.runtime;
  const mint = async (u: TestUser, app = config.centerAppId) => {
    const record = await storage.users.findByUsername(u.username);
    return record
      ? (await services.tokens.envelope(record, app)).body.access_token
      : undefined;
  };
  switch (who) {
    case 'none':
      return undefined;
    case 'user':
      return mint(user);
    case 'admin':
      return mint(admin);
    case 'third-party':
      return mint(user, apps[0] ?? 'game');
    case 'garbage':
      return 'not.a.jwt';
    case 'alg-none':
      return `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: admin.username, uid: 1, roles: ['admin'], app: 'account-center', exp: 9e9 })).toString('base64url')}.`;
  }
}

const request = (route: PostRoute) =>
  fc.record({
    text: bodyText(route.fields, plausibleFor(route.fields, { victim, apps })),
    contentType: contentTypes,
    who: fc.oneof(
      { arbitrary: fc.constantFrom<Who>('user', 'admin'), weight: 3 },
      {
        arbitrary: fc.constantFrom<Who>(
          'none',
          'garbage',
          'third-party',
          'alg-none',
        ),
        weight: 2,
      },
    ),
    scheme: fc.constantFrom('Bearer', 'bearer', 'Basic'),
  });

interface FuzzRequest {
  text: string;
  contentType: string | undefined;
  who: Who;
  scheme: string;
}

async function hit(route: PostRoute, r: FuzzRequest): Promise<void> {
  const token = await bearerFor(r.who);
  const headers: Record<string, string> = {};
  if (r.contentType) headers['content-type'] = r.contentType;
  if (token) headers.authorization = `${r.scheme} ${token}`;
  const res = await injectWithin(t.app, ANSWER_WITHIN_MS, {
    method: 'POST',
    url: route.path,
    payload: r.text,
    headers,
  });
  assertAnswerOf(route.path)(
    res,
    `${route.path} ${r.contentType} ${r.text.slice(0, 120)}`,
  );
  if (!prototypeIsClean())
    throw new Error(`${route.path}: Object.prototype was polluted`);
}

describe('fuzzing every POST endpoint', () => {
  it('finds every contract POST route registered, plus any newer ones', () => {
    const found = new Set(routes.map((r) => r.path));
    for (const p of CONTRACT_POST_PATHS) expect(found.has(p)).toBe(true);
    expect(routes.length).toBeGreaterThanOrEqual(CONTRACT_POST_PATHS.length);
  });

  it('answers every arbitrary request with an envelope, never a 5xx or a hang', {
    timeout: 240_000,
  }, async () => {
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(request(route), (r) => hit(route, r)),
        { numRuns: RUNS, interruptAfterTimeLimit: 30_000 },
      );
    }
  });

  it('answers the hand-picked worst cases on every route', {
    timeout: 120_000,
  }, async () => {
    const worst = [
      '['.repeat(32_000) + ']'.repeat(32_000),
      `${'{"a":'.repeat(12_000)}1${'}'.repeat(12_000)}`,
      '{"__proto__":{"fuzzPolluted":"yes","roles":["admin"]},"constructor":{"prototype":{"isAdmin":true}}}',
      `{"username":"${'\\u0000'.repeat(2000)}","password":"${'😀'.repeat(2000)}"}`,
      '{"client_id":{"toString":"x"},"redirect_uri":["https://example.com/cb"]}',
      '{"a":"\\ud800","code":1e999}',
      JSON.stringify({ x: 'y'.repeat(65_400) }),
    ];
    // Long adversarial strings in every field of the route (regular-expression blow-ups).
    const longValues = [
      'a'.repeat(60_000),
      `${'a-'.repeat(30_000)}!`,
      `${'a.'.repeat(30_000)}@`,
      `${'a'.repeat(200)}@${'b-'.repeat(29_000)}.c`,
      `https://${'a.'.repeat(29_000)}`,
    ];
    for (const route of routes) {
      const base = Object.fromEntries(
        route.fields
          .filter((f) => f in SHORT_VALID)
          .map((f) => [f, SHORT_VALID[f]]),
      );
      const perField = route.fields.flatMap((f) =>
        longValues.map((v) =>
          JSON.stringify({
            ...base,
            [f]: Array.isArray(SHORT_VALID[f]) ? [v] : v,
          }),
        ),
      );
      for (const text of [...worst, ...perField]) {
        for (const who of ['none', 'admin'] as const)
          await hit(route, {
            text,
            contentType: 'application/json',
            who,
            scheme: 'Bearer',
          });
      }
    }
  });

  it('the checks themselves catch a server error, a non-envelope and pollution', () => {
    const res = (statusCode: number, body: string) =>
      ({ statusCode, body }) as never;
    expect(() =>
      assertEnvelope(res(500, '{"ok":false,"msg":"x"}'), 't'),
    ).toThrow(/server error/);
    expect(() => assertEnvelope(res(400, 'oops'), 't')).toThrow(/not JSON/);
    expect(() => assertEnvelope(res(400, '{"error":"x"}'), 't')).toThrow(
      /ok:false/,
    );
    expect(() =>
      assertEnvelope(res(400, '{"ok":false,"msg":"参数错误：x"}'), 't'),
    ).not.toThrow();
    expect(() =>
      assertStandardAnswer(res(500, '{"error":"server_error"}'), 't'),
    ).toThrow(/unexpected status/);
    expect(() =>
      assertStandardAnswer(res(400, '{"error":"invalid_request"}'), 't'),
    ).not.toThrow();
    expect(assertAnswerOf('/oauth/token')).toBe(assertStandardAnswer);
    expect(assertAnswerOf('/api/v1/auth/login')).toBe(assertEnvelope);
    (Object.prototype as Record<string, unknown>).fuzzPolluted = 'yes';
    try {
      expect(prototypeIsClean()).toBe(false);
    } finally {
      delete (Object.prototype as Record<string, unknown>).fuzzPolluted;
    }
  });

  it('stays healthy and unpolluted afterwards', async () => {
    const health = await t.get('/healthz');
    expect(health.statusCode).toBe(200);
    expect(prototypeIsClean()).toBe(true);
    // The users that drove the fuzzing still sign in.
    const login = await t.post('/api/v1/auth/login', {
      username: user.username,
      password: user.password,
    });
    expect(login.statusCode).toBe(200);
  });
});
