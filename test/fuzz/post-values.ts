import fc from 'fast-check';
import { anyString } from './arbitraries.js';
import { type TestUser, uniqueName } from '../helpers/app.js';

/** Believable values for known field names, so the fuzzer also reaches past validation. */
export function plausibleFor(
  fields: string[],
  { victim, apps }: { victim: TestUser; apps: string[] },
): fc.Arbitrary<Record<string, unknown>> {
  const known: Record<string, fc.Arbitrary<unknown>> = {
    // Admin targets are a bystander, never the users whose tokens drive the fuzzing.
    username: fc.constantFrom(
      victim.username,
      victim.email,
      uniqueName('ghost'),
      'ab',
    ),
    password: fc.constantFrom(victim.password, 'wrong password!', 'short'),
    new_password: fc.constantFrom('another good password', 'short'),
    email: fc.constantFrom(
      victim.email,
      `${uniqueName()}@example.com`,
      'not-an-email',
    ),
    display_name: fc.oneof(fc.constant('Fuzz 应用'), anyString),
    purpose: fc.constantFrom(
      'register',
      'login',
      'verify',
      'reset_password',
      'other',
    ),
    code: fc.oneof(fc.constantFrom('123456', '000000'), anyString),
    email_code: fc.constantFrom('123456', ''),
    client_id: fc.constantFrom(
      ...apps,
      'account-center',
      'game',
      'no-such-app',
    ),
    redirect_uri: fc.constantFrom(
      'https://example.com/cb',
      'https://example.com/cb/',
      'https://evil.example/cb',
    ),
    redirect_uris: fc.constantFrom(
      ['https://example.com/cb'],
      ['http://localhost:8080/cb'],
      ['com.example.app:/cb'],
      ['ftp://x'],
      [],
    ),
    cors_origins: fc.constantFrom(
      [],
      ['https://example.com'],
      ['null'],
      ['https://example.com/path'],
    ),
    scopes: fc.constantFrom([], ['profile'], ['bad scope']),
    scope: fc.constantFrom('profile', 'profile+email', ''),
    state: anyString,
    homepage: fc.constantFrom('https://example.com', 'not a url'),
    client_type: fc.constantFrom('confidential', 'public', 'other'),
    client_secret: anyString,
    code_challenge: fc.constantFrom(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      'x',
    ),
    code_challenge_method: fc.constantFrom('S256', 'plain'),
    code_verifier: fc.constantFrom(
      'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      'short',
    ),
    enabled: fc.boolean(),
    banned: fc.boolean(),
    roles: fc.constantFrom(['player'], ['player', 'builder'], ['bad role!']),
    all: fc.boolean(),
    deny: fc.boolean(),
    user_code: fc.constantFrom('123456', '12345', 'abcdef'),
    device_code: anyString,
  };
  const fresh = fc.stringMatching(/^[a-z][a-z0-9]{9}$/);
  // Values every route accepts, so whole bodies get through validation into the services.
  const valid: Record<string, fc.Arbitrary<unknown>> = {
    username: fc.oneof(
      fresh.map((n) => `fz_${n}`),
      fc.constant(victim.username),
    ),
    password: fc.constant(victim.password),
    email: fc.oneof(
      fresh.map((n) => `${n}@example.com`),
      fc.constant(victim.email),
    ),
    display_name: fc.constant('Fuzz 应用'),
    client_id: fc.oneof(fc.constantFrom(...apps, 'account-center'), fresh),
    redirect_uri: fc.constant('https://example.com/cb'),
    redirect_uris: fc.constant(['https://example.com/cb']),
    cors_origins: fc.constant([]),
    scopes: fc.constant([]),
    homepage: fc.constant('https://example.com'),
    client_type: fc.constantFrom('confidential', 'public'),
    code_challenge: fc.constant('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    code_challenge_method: fc.constant('S256'),
    roles: fc.constant(['player']),
    all: fc.constant(false),
  };
  const present = fields.filter((f) => known[f]);
  const model = Object.fromEntries(present.map((f) => [f, known[f]!]));
  const validModel = Object.fromEntries(
    present.filter((f) => valid[f]).map((f) => [f, valid[f]!]),
  );
  // Complete bodies reach past validation into the services; partial ones probe the checks.
  return fc.oneof(
    fc.record(validModel),
    fc.record(model),
    fc.record(model, { requiredKeys: [] }),
  ) as fc.Arbitrary<Record<string, unknown>>;
}

/** Short valid values, so a long value in one field is the only thing wrong with a body. */
export const SHORT_VALID: Record<string, unknown> = {
  username: 'fz_short',
  password: 'correct horse battery',
  new_password: 'correct horse battery',
  email: 'fz@example.com',
  display_name: 'Fuzz',
  purpose: 'login',
  code: '123456',
  client_id: 'account-center',
  redirect_uri: 'https://example.com/cb',
  redirect_uris: ['https://example.com/cb'],
  cors_origins: [],
  scopes: [],
  homepage: 'https://example.com',
  client_secret: 'x',
  code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
  user_code: '123456',
  device_code: 'x',
  roles: ['player'],
};
