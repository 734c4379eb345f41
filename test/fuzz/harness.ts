import fc from 'fast-check';
import type {
  FastifyInstance,
  InjectOptions,
  LightMyRequestResponse,
} from 'fastify';

/** Every POST path docs/api.md names; routes found in the running app are added to these. */
export const CONTRACT_POST_PATHS = [
  '/api/v1/auth/register',
  '/api/v1/auth/login',
  '/api/v1/auth/send_code',
  '/api/v1/auth/login_by_code',
  '/api/v1/auth/verify_email',
  '/api/v1/auth/reset_password',
  '/api/v1/auth/client_info',
  '/api/v1/auth/authorize',
  '/api/v1/auth/exchange',
  '/api/v1/auth/refresh',
  '/api/v1/auth/logout',
  '/api/v1/auth/apps',
  '/api/v1/auth/apps/update',
  '/api/v1/auth/apps/rotate_secret',
  '/api/v1/auth/apps/disable',
  '/api/v1/auth/device/start',
  '/api/v1/auth/device/approve',
  '/api/v1/auth/device/poll',
  '/api/v1/auth/game_token',
  '/api/v1/auth/admin/users/ban',
  '/api/v1/auth/admin/users/roles',
];

export interface PostRoute {
  path: string;
  /** Field names of the body schema, when the route declares one (to aim values at real fields). */
  fields: string[];
}

/**
 * The POST routes of the built app, from its OpenAPI document (every route registered with
 * Fastify is listed there), merged with the contract's list so a missing route is noticed too.
 */
export function postRoutes(app: FastifyInstance): PostRoute[] {
  const doc = (
    app as unknown as {
      swagger(): { paths?: Record<string, Record<string, unknown>> };
    }
  ).swagger();
  const found = new Map<string, PostRoute>();
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    const post = ops.post as
      | {
          requestBody?: {
            content?: Record<
              string,
              { schema?: { properties?: Record<string, unknown> } }
            >;
          };
        }
      | undefined;
    if (!post) continue;
    const schema = post.requestBody?.content?.['application/json']?.schema;
    found.set(path, { path, fields: Object.keys(schema?.properties ?? {}) });
  }
  for (const path of CONTRACT_POST_PATHS)
    if (!found.has(path)) found.set(path, { path, fields: [] });
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** Keys that would pollute a prototype if a body were merged carelessly, and the marker they carry. */
export const POLLUTION_MARKER = 'fuzzPolluted';
const pollutionPayload = {
  [POLLUTION_MARKER]: 'yes',
  roles: ['admin'],
  isAdmin: true,
  status: 'active',
};

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\u202e',
  '\ud800',
  '\udfff',
  '😀'.repeat(300),
  '\u0000'.repeat(100),
  'a'.repeat(5000),
  '中文用户名',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '../../../../etc/passwd',
  '%00',
  'javascript:alert(1)',
  '<script>x</script>',
  'http://localhost/cb',
  'https://example.com/cb#frag',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'S256',
  'plain',
  'confidential',
  'public',
  'account-center',
  'game',
  'admin',
  'player',
  '000000',
  '123456',
  'register',
  'login',
  'verify',
  'reset_password',
  'correct horse battery',
  'a@b.co',
  'x'.repeat(129),
);

export const anyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  nastyStrings,
);

const leaf = fc.oneof(
  anyString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(1e308, -0, 2 ** 53 + 1),
);

/** Arbitrary JSON whose object keys are often the dangerous ones. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.dictionary(
    fc.oneof(
      anyString,
      fc.constantFrom('__proto__', 'constructor', 'prototype'),
    ),
    tie('value'),
    { maxKeys: 4 },
  ),
})).value;

/** A JSON text for a body; objects aimed at the route's own fields with values of any type. */
export function bodyText(
  fields: string[],
  plausible: fc.Arbitrary<Record<string, unknown>>,
): fc.Arbitrary<string> {
  const aimed =
    fields.length === 0
      ? fc.dictionary(anyString, anyJson, { maxKeys: 4 })
      : fc.record(
          Object.fromEntries(
            fields.map((f) => [f, fc.oneof(anyJson, anyString)]),
          ),
          { requiredKeys: [] },
        );
  const deep = fc
    .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom('[', '{"a":'))
    .map(
      ([depth, open]) =>
        `${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`,
    );
  const polluting = fc
    .tuple(plausible, fc.constantFrom('__proto__', 'constructor', 'both'))
    .map(([base, how]) => {
      const inner = JSON.stringify(base).slice(1, -1);
      const proto = `"__proto__":${JSON.stringify(pollutionPayload)}`;
      const ctor = `"constructor":{"prototype":${JSON.stringify(pollutionPayload)}}`;
      const extra =
        how === '__proto__'
          ? proto
          : how === 'constructor'
            ? ctor
            : `${proto},${ctor}`;
      return `{${extra}${inner ? `,${inner}` : ''}}`;
    });
  return fc.oneof(
    aimed.map((v) => JSON.stringify(v)),
    { arbitrary: plausible.map((v) => JSON.stringify(v)), weight: 5 },
    fc
      .tuple(
        plausible,
        fc.dictionary(
          fc.constantFrom(...(fields.length ? fields : ['x'])),
          anyJson,
          { maxKeys: 2 },
        ),
      )
      .map(([p, mutation]) => JSON.stringify({ ...p, ...mutation })),
    anyJson.map((v) => JSON.stringify(v) ?? 'null'),
    polluting,
    deep,
    fc.constantFrom(
      '',
      '{',
      '{"a":',
      'nul',
      '[1,2',
      '{"a":1}}',
      '\u0000',
      '{"a":"\\ud800"}',
      '{"a":1e999999}',
      `{"big":"${'x'.repeat(70 * 1024)}"}`,
    ),
    fc.string({ unit: 'binary', maxLength: 64 }),
  );
}

/** Mostly JSON, so most runs get past the body parser; the rest must be a clean 415. */
export const contentTypes: fc.Arbitrary<string | undefined> = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON',
    ),
    weight: 6,
  },
  {
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      undefined,
    ),
    weight: 1,
  },
);

/** Resolves with the response, or rejects when the service does not answer in time (a hang). */
export async function injectWithin(
  app: FastifyInstance,
  ms: number,
  opts: InjectOptions,
): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([app.inject(opts), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The response is a well-formed envelope: 200 `ok:true`, or a 4xx `{ok:false, msg}`; never a 5xx. */
export function assertEnvelope(
  res: LightMyRequestResponse,
  what: string,
): void {
  const fail = (why: string) => {
    throw new Error(
      `${what}: ${why} — ${res.statusCode} ${res.body.slice(0, 300)}`,
    );
  };
  if (res.statusCode >= 500) fail('server error');
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    fail('body is not JSON');
  }
  const b = parsed as { ok?: unknown; msg?: unknown };
  if (res.statusCode === 200 || res.statusCode === 204) {
    if (res.statusCode === 200 && b.ok !== true) fail('200 without ok:true');
    return;
  }
  if (res.statusCode < 400) fail('unexpected status');
  if (b.ok !== false || typeof b.msg !== 'string' || b.msg.length === 0)
    fail('failure without {ok:false,msg}');
}

/**
 * The standard OAuth / OpenID Connect endpoints answer in their own formats (RFC 6749 errors,
 * HTML pages, redirects), not the v1 envelope: for them, no 5xx and no surprising status.
 */
export function assertStandardAnswer(
  res: LightMyRequestResponse,
  what: string,
): void {
  const status = res.statusCode;
  const expected =
    (status >= 200 && status < 300) ||
    status === 302 ||
    status === 303 ||
    (status >= 400 && status < 500);
  if (!expected) {
    throw new Error(
      `${what}: unexpected status — ${res.statusCode} ${res.body.slice(0, 300)}`,
    );
  }
}

/** The v1 API answers with its envelope; the standard endpoints with their own formats. */
export const assertAnswerOf = (path: string) =>
  path.startsWith('/api/') ? assertEnvelope : assertStandardAnswer;

export function prototypeIsClean(): boolean {
  const probe = {} as Record<string, unknown>;
  return (
    probe[POLLUTION_MARKER] === undefined &&
    probe.isAdmin === undefined &&
    probe.roles === undefined &&
    probe.status === undefined &&
    (Object.prototype as Record<string, unknown>)[POLLUTION_MARKER] ===
      undefined
  );
}
