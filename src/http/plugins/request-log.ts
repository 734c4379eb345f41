import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { symbols, type Logger } from 'pino';

/** An incoming X-Request-Id is kept only if it is short and plain, so it can not forge log content. */
const PASSED_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

/** Fastify `genReqId`: the caller's (or the proxy's) X-Request-Id when sane, else a fresh UUID. */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && PASSED_ID.test(given) ? given : randomUUID();
}

/**
 * The request line, formatted here rather than by `logger.info()`: every field is of our own
 * making (a sanitised id, a route pattern quoted when the route was added, numbers, an id), so
 * pino's generic walk over an object and its redaction (~25 µs a line with the root logger's
 * paths) buy nothing. The line has the shape pino would give it (level, time and bindings taken
 * from the logger) and goes to the logger's own stream.
 */
function requestLineWriter(logger: Logger) {
  const raw = logger as unknown as Record<symbol, unknown>;
  const stream = raw[symbols.streamSym] as { write(line: string): unknown };
  const time = raw[symbols.timeSym] as () => string;
  const levelPrefix = (raw[symbols.lsCacheSym] as Record<number, string>)[logger.levels.values.info!]!;
  const bindings = raw[symbols.chindingsSym] as string;
  return (request: FastifyRequest, reply: FastifyReply, quotedRoute: string) => {
    if (!logger.isLevelEnabled('info')) return;
    const uid = request.auth?.user.id;
    stream.write(`${levelPrefix}${time()}${bindings},"reqId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},"route":${quotedRoute},` +
      `"status":${reply.statusCode},"ms":${Math.round(elapsedMs(request) * 10) / 10},"uid":${uid === undefined ? 'null' : JSON.stringify(uid)},"msg":"request"}\n`);
  };
}

/** When each request reached its route (performance.now()), for its duration. */
const STARTED = Symbol('started');
type Timed = FastifyRequest & { [STARTED]?: number };

/** Milliseconds from the request's arrival at its route until now. */
export function elapsedMs(request: FastifyRequest): number {
  const started = (request as Timed)[STARTED];
  return started === undefined ? 0 : performance.now() - started;
}

/**
 * One info line per request, written as the response is handed to the socket (an `onSend`
 * hook, the last of each route's: an `onResponse` hook would make Fastify listen for every
 * response's `finish` event): request id, method, route pattern (never the query string,
 * which may carry a code), status, milliseconds and the signed-in user's id. No per-request
 * child logger is built, and nothing at all when `info` is off. The pattern is bound per route
 * when the route is added (`request.routeOptions` would build an object per request, as in
 * metrics.ts). Every reply carries X-Request-Id.
 */
export function registerRequestLog(app: FastifyInstance, logger: Logger): void {
  const line = requestLineWriter(logger);
  app.addHook('onRequest', (request, reply, done) => {
    (request as Timed)[STARTED] = performance.now();
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onRoute', (route) => {
    const pattern = JSON.stringify(route.url);
    const hook = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
      line(request, reply, pattern);
      done(null, payload);
    };
    const own = route.onSend;
    route.onSend = own === undefined ? [hook] : Array.isArray(own) ? [...own, hook] : [own, hook];
  });
  // Requests that matched no route.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.is404) line(request, reply, '"(no route)"');
    done(null, payload);
  });
}
