import fc from 'fast-check';

/** Arbitrary request parts for the fuzz tests: strings, JSON values, raw bodies, content types. */
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
