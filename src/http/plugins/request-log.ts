import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Logger } from 'pino';

/** An incoming X-Request-Id is kept only if it is short and plain, so it can not forge log content. */
const PASSED_ID = /^[A-Za-z0-9._:@\/+=-]{1,128}$/;

/** Fastify `genReqId`: the caller's (or the proxy's) X-Request-Id when sane, else a fresh UUID. */
export function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && PASSED_ID.test(given) ? given : randomUUID();
}

/**
 * One info line per request, written when the response has gone out: request id, method,
 * route pattern (never the query string, which may carry a code), status, milliseconds and
 * the signed-in user's id. It goes through the root logger, so no per-request child logger is
 * built, and nothing is built at all when `info` is off. The pattern is bound per route when
 * the route is added (`request.routeOptions` would build an object per request, as in
 * metrics.ts). Every reply carries X-Request-Id.
 */
export function registerRequestLog(app: FastifyInstance, logger: Logger): void {
  // The line holds only fields of our own making (a sanitised id, the route pattern, numbers),
  // so it skips the root logger's redaction, which costs ~25 µs a line against ~1 µs without:
  // most of what a `me` request would cost.
  const lines = logger.child({}, { redact: { paths: [] } });
  const line = (request: FastifyRequest, reply: FastifyReply, route: string) => {
    if (!lines.isLevelEnabled('info')) return;
    lines.info({
      reqId: request.id,
      method: request.method,
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      uid: request.auth?.user.id ?? null,
    }, 'request');
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onRoute', (route) => {
    const pattern = route.url;
    const hook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      line(request, reply, pattern);
      done();
    };
    const own = route.onResponse;
    route.onResponse = own === undefined ? [hook] : Array.isArray(own) ? [...own, hook] : [own, hook];
  });
  // Requests that matched no route.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) line(request, reply, '(no route)');
    done();
  });
}
