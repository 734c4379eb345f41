import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { symbols, type Logger } from 'pino';
import type { RequestStats } from './metrics.js';
import { sendAtTurnEnd, type SendContinuation } from './turn-end-send.js';

/** An incoming X-Request-Id is kept only if it is short and plain, so it can not forge log content. */
const PASSED_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

/** When each request reached Fastify (performance.now()), for its duration. */
const ARRIVED = Symbol('arrived');
type Arrived = { [ARRIVED]?: number };

/**
 * Fastify `genReqId`: the caller's (or the proxy's) X-Request-Id when sane, else a fresh UUID.
 * Fastify calls it first for every request, so it also notes the arrival time: no `onRequest`
 * hook is needed for that. The id holds no `"` or `\`, so the request line quotes it as it is.
 */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  (req as Arrived)[ARRIVED] = performance.now();
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && PASSED_ID.test(given) ? given : randomUUID();
}

/** Milliseconds from the request's arrival until now. */
export function elapsedMs(request: FastifyRequest): number {
  const arrived = (request.raw as Arrived)[ARRIVED];
  return arrived === undefined ? 0 : performance.now() - arrived;
}

/**
 * The request line, formatted here rather than by `logger.info()`: every field is of our own
 * making (an id of safe characters, a method the HTTP parser accepted, a route pattern quoted
 * when the route was added, numbers), so pino's generic walk over an object and its redaction
 * (~25 µs a line with the root logger's paths) buy nothing. The line has the shape pino would
 * give it (level, time and bindings taken from the logger) and goes to the logger's own stream.
 */
function requestLineWriter(logger: Logger) {
  const raw = logger as unknown as Record<symbol, unknown>;
  const stream = raw[symbols.streamSym] as { write(line: string): unknown };
  const time = raw[symbols.timeSym] as () => string;
  const levelPrefix = (raw[symbols.lsCacheSym] as Record<number, string>)[logger.levels.values.info!]!;
  const bindings = raw[symbols.chindingsSym] as string;
  return (request: FastifyRequest, reply: FastifyReply, quotedRoute: string, ms: number) => {
    if (!logger.isLevelEnabled('info')) return;
    const uid = request.auth?.user.id;
    stream.write(`${levelPrefix}${time()}${bindings},"reqId":"${request.id}","method":"${request.method}","route":${quotedRoute},` +
      `"status":${reply.statusCode},"ms":${Math.round(ms * 10) / 10},"uid":${uid === undefined ? 'null' : uid},"msg":"request"}\n`);
  };
}

/**
 * What every answer gets as it is handed to the connection, in one `onSend` hook, the last of
 * each route's: the X-Request-Id header, one info line (request id, method, route pattern —
 * never the query string, which may carry a code —, status, milliseconds and the signed-in
 * user's id) and the route's metrics. It then hands the answer over at the end of the event
 * loop's turn, with the turn's other answers (turn-end-send.ts). Not `onRequest`/`onResponse`
 * hooks: an `onResponse` hook makes Fastify listen for every response's `finish` event, and
 * each hook stage costs its own run. No per-request child logger is built, and no line when
 * `info` is off. The pattern is bound per route when the route is added
 * (`request.routeOptions` would build an object per request).
 */
export function registerRequestLog(app: FastifyInstance, logger: Logger, stats: RequestStats): void {
  const line = requestLineWriter(logger);
  const answered = (request: FastifyRequest, reply: FastifyReply, route: string, quotedRoute: string) => {
    const ms = elapsedMs(request);
    void reply.header('x-request-id', request.id);
    line(request, reply, quotedRoute, ms);
    stats.record(request.method, route, reply.statusCode, ms / 1000);
  };
  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const quoted = JSON.stringify(pattern);
    const hook = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SendContinuation) => {
      answered(request, reply, pattern, quoted);
      sendAtTurnEnd(done, payload, reply.raw);
    };
    const own = route.onSend;
    route.onSend = own === undefined ? [hook] : Array.isArray(own) ? [...own, hook] : [own, hook];
  });
  // Requests that matched no route.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.is404) return done(null, payload);
    answered(request, reply, 'unmatched', '"(no route)"');
    sendAtTurnEnd(done, payload, reply.raw);
  });
}
