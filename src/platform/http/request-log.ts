import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { RequestStats } from './metrics.js';

/** An incoming X-Request-Id is kept only if it is short and plain, so it can not forge log content. */
const PASSED_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** When each request reached Fastify (performance.now()), for its duration. */
const ARRIVED = Symbol('arrived');
/** Its place in the order of arrival at this process, and the wall-clock time it arrived. */
const ARRIVAL_SEQ = Symbol('arrivalSeq');
const ARRIVAL_MS = Symbol('arrivalMs');
type Arrived = {
  [ARRIVED]?: number;
  [ARRIVAL_SEQ]?: number;
  [ARRIVAL_MS]?: number;
};
let arrivals = 0;

/** When a request reached this process: `seq` orders it among this process's requests. */
export interface RequestArrival {
  seq: number;
  atMs: number;
}

/** How many requests have reached this process so far: a request with a higher `seq` came later. */
export const arrivalsSoFar = () => arrivals;

export function arrivalOf(request: FastifyRequest): RequestArrival | undefined {
  const raw = request.raw as Arrived;
  return raw[ARRIVAL_SEQ] === undefined
    ? undefined
    : { seq: raw[ARRIVAL_SEQ], atMs: raw[ARRIVAL_MS]! };
}

/**
 * Fastify `genReqId`: the caller's (or the proxy's) X-Request-Id when sane, else a fresh UUID.
 * Fastify calls it first for every request, so it also notes the arrival time: no `onRequest`
 * hook is needed for that. The id holds no `"` or `\`, so the request line quotes it as it is.
 */
export function requestId(req: {
  headers: Record<string, string | string[] | undefined>;
}): string {
  const arrived = req as Arrived;
  arrived[ARRIVED] = performance.now();
  arrived[ARRIVAL_SEQ] = ++arrivals;
  // Read from the wall clock, not derived from performance.timeOrigin: that drifts from the
  // wall clock over a long-running process, and other instances compare it with stored times.
  arrived[ARRIVAL_MS] = Date.now();
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && PASSED_ID.test(given)
    ? given
    : randomUUID();
}

/** Milliseconds from the request's arrival until now. */
export function elapsedMs(request: FastifyRequest): number {
  const arrived = (request.raw as Arrived)[ARRIVED];
  return arrived === undefined ? 0 : performance.now() - arrived;
}

/**
 * What every answer gets as it is handed to the connection, in one `onSend` hook, the last of
 * each route's: the X-Request-Id header, one info line (request id, method, route pattern —
 * never the query string, which may carry a code —, status, milliseconds and the signed-in
 * user's id) and the route's metrics. Not `onRequest`/`onResponse` hooks: an `onResponse` hook
 * makes Fastify listen for every response's `finish` event, and each hook stage costs its own
 * run. The line goes to the service's logger, not a per-request child. The pattern is bound per
 * route when the route is added (`request.routeOptions` would build an object per request).
 */
export function registerRequestLog(
  app: FastifyInstance,
  logger: Logger,
  stats: RequestStats,
): void {
  // The line's keys are fixed and none of them can hold a secret, so it skips the redaction
  // the service's logger applies to every other line (which walks each line's object).
  const lines = logger.child({}, { redact: [] });
  const answered = (
    request: FastifyRequest,
    reply: FastifyReply,
    route: string,
    loggedRoute = route,
  ) => {
    const ms = elapsedMs(request);
    void reply.header('x-request-id', request.id);
    lines.info(
      {
        reqId: request.id,
        method: request.method,
        route: loggedRoute,
        status: reply.statusCode,
        ms: Math.round(ms * 10) / 10,
        uid: request.auth?.user.id ?? null,
      },
      'request',
    );
    stats.record(request.method, route, reply.statusCode, ms / 1000);
  };
  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const hook = (
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (err: Error | null, payload?: unknown) => void,
    ) => {
      answered(request, reply, pattern);
      done(null, payload);
    };
    const own = route.onSend;
    route.onSend =
      own === undefined
        ? [hook]
        : Array.isArray(own)
          ? [...own, hook]
          : [own, hook];
  });
  // Requests that matched no route.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.is404) return done(null, payload);
    answered(request, reply, 'unmatched', '(no route)');
    done(null, payload);
  });
}
