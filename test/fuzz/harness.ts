import type {
  FastifyInstance,
  InjectOptions,
  LightMyRequestResponse,
} from 'fastify';
import { POLLUTION_MARKER } from './arbitraries.js';

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
