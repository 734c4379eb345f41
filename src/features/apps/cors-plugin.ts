import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failureOf, type Reason } from '../../errors/index.js';
import type { CorsWhitelist } from './cors-whitelist.js';

/** The endpoints open to browsers on other origins (docs/api.md §6); register/login are not. */
const CORS_PATHS = new Set([
  ...['client_info', 'authorize', 'exchange', 'me', 'refresh', 'logout'].map(
    (p) => `/api/v1/auth/${p}`,
  ),
  // docs/api.md §12.6: the standard endpoints a single-page app calls directly, same rules.
  ...['token', 'userinfo', 'revoke', 'device_authorization'].map(
    (p) => `/oauth/${p}`,
  ),
]);
const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-max-age': '60',
} as const;

const pathOf = (request: FastifyRequest): string =>
  request.url.split('?', 1)[0]!;

/** The client_id a request names: the query (preflight and GET) or, for actual requests, the body. */
function namedClientId(request: FastifyRequest): string | undefined {
  const fromQuery = (request.query as Record<string, unknown> | undefined)
    ?.client_id;
  const body = request.body;
  const fromBody =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>).client_id
      : undefined;
  const named = typeof fromQuery === 'string' ? fromQuery : fromBody;
  // A NUL-bearing id was already refused as a field error; it never reaches the database here either.
  return typeof named === 'string' && !named.includes('\0') ? named : undefined;
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) void reply.header('vary', 'Origin');
  else if (
    !String(vary)
      .split(',')
      .some((v) => v.trim().toLowerCase() === 'origin')
  )
    void reply.header('vary', `${String(vary)}, Origin`);
}

function refuse(reply: FastifyReply, reason: Reason) {
  const { status, body } = failureOf(reason);
  return reply.code(status).send(body);
}

/** CORS for the endpoints of docs/api.md §6 (docs/api.md §6), with the 403 preflight body of docs/api.md §1.9. */
export async function registerCors(
  app: FastifyInstance,
  whitelist: Pick<CorsWhitelist, 'allows'>,
) {
  // Preflights for any path: a path outside CORS_PATHS is refused like an unknown origin.
  app.route({
    method: 'OPTIONS',
    url: '*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const origin = request.headers.origin;
      if (origin === undefined) return refuse(reply, 'notFound');
      addVary(reply);
      const allowed =
        CORS_PATHS.has(pathOf(request)) &&
        (await whitelist.allows(origin, namedClientId(request)));
      if (!allowed) return refuse(reply, 'originNotAllowed');
      return reply
        .code(204)
        .headers({
          'access-control-allow-origin': origin,
          ...PREFLIGHT_HEADERS,
        })
        .send();
    },
  });

  // Actual requests are always processed; only a whitelisted Origin is echoed, errors included.
  // The hook is bound to the CORS routes when they are added, so no other route pays for it.
  // Callback style: a request without Origin (a back end calling `me`) costs no promise.
  const echoOrigin = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: null, payload: unknown) => void,
  ) => {
    addVary(reply);
    const origin = request.headers.origin;
    if (origin === undefined) return done(null, payload);
    whitelist
      .allows(origin, namedClientId(request))
      .then(
        (allowed) => {
          if (allowed) void reply.header('access-control-allow-origin', origin);
        },
        (err: unknown) => {
          request.log.warn({ err }, 'CORS whitelist lookup failed');
        },
      )
      .then(() => done(null, payload));
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!CORS_PATHS.has(route.url) || methods.includes('OPTIONS')) return;
    const own = route.onSend;
    // First of the route's own: the request line and metrics (added earlier) stay last.
    route.onSend =
      own === undefined
        ? [echoOrigin]
        : Array.isArray(own)
          ? [echoOrigin, ...own]
          : [echoOrigin, own];
  });
  // A CORS path asked with a method it does not have matches no route: its 404 is echoed too.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      !request.is404 ||
      request.method === 'OPTIONS' ||
      !CORS_PATHS.has(pathOf(request))
    )
      return done(null, payload);
    echoOrigin(request, reply, payload, done);
  });
}
