import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import {
  AppError,
  badParam,
  errorHeaders,
  fail,
  failureOf,
  type Reason,
} from '../../errors/index.js';
import {
  DATABASE_RETRY_AFTER_S,
  databaseUnavailable,
} from '../sql/unavailable.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Body fields this route answers with their own format failure (docs/api.md §2 rows, e.g.
     * `username: 'badUsername'`): a NUL byte in one gets that answer, exactly as any other
     * malformed value of the field does, instead of `参数错误：<field>`.
     */
    fieldFormats?: Readonly<Record<string, Reason>>;
  }
}

/** The public field a schema failure concerns: `/redirect_uris/0` → `redirect_uris`. */
function fieldOf(err: FastifyError): string {
  const v = err.validation?.[0];
  if (!v) return 'body';
  const missing = (v.params as { missingProperty?: string } | undefined)
    ?.missingProperty;
  if (missing) return missing;
  const path = v.instancePath.split('/').filter(Boolean)[0];
  return path ?? 'body';
}

/** Maps every error, ours or Fastify's, to `{ ok:false, msg }` with the status of docs/api.md §1. */
export function toFailure(err: FastifyError | AppError | Error): {
  status: number;
  body: Record<string, unknown>;
} {
  if (err instanceof AppError)
    return {
      status: err.status,
      body: { ok: false, msg: err.msg, ...err.extra },
    };
  const e = err as FastifyError;
  if (e.validation) return toFailure(badParam(fieldOf(e)));
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return failureOf('notJson');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return failureOf('tooLarge');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return failureOf('badJson');
  }
  if (err instanceof SyntaxError || e.code?.startsWith('FST_ERR_CTP_'))
    return failureOf(e.statusCode === 413 ? 'tooLarge' : 'badJson');
  if (e.statusCode === 429) return failureOf('rateLimited');
  if (e.statusCode === 404) return failureOf('notFound');
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return {
      status: e.statusCode,
      body: { ok: false, msg: badParam('body').msg },
    };
  }
  return failureOf('internal');
}

/** Answers an unknown address with a page instead, when it is a browser's; true when it did. */
export type NotFoundPage = (
  request: FastifyRequest,
  reply: FastifyReply,
) => boolean;

export function registerErrorHandling(
  app: FastifyInstance,
  notFoundPage?: NotFoundPage,
): void {
  app.setErrorHandler((err, request, reply) => {
    if (databaseUnavailable(err)) {
      // Expected while the database restarts or the disk is full: no stack, no 500.
      request.log.warn({ err: (err as Error).message }, 'database unavailable');
      const { status, body } = failureOf('dbUnavailable');
      void reply
        .code(status)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send(body);
      return;
    }
    const { status, body } = toFailure(err as FastifyError);
    if (status >= 500) request.log.error({ err }, 'request failed');
    void reply.code(status).headers(errorHeaders(err)).send(body);
  });
  // An unknown route's query is judged too, before the 404: here rather than in a global hook,
  // which every route would run.
  app.setNotFoundHandler((request, reply) => {
    const field = fieldWithNul(request.query);
    if (field !== undefined) throw badParam(field);
    if (notFoundPage?.(request, reply)) return;
    const { status, body } = failureOf('notFound');
    void reply.code(status).send(body);
  });
}

/**
 * JSON bodies: an empty body reads as `{}` (docs/api.md §1), `__proto__`/`constructor` keys
 * are dropped, anything unparsable is a 400.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  // Only JSON is read; any other declared type is a 415 (docs/api.md §1).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, {});
      parseJson(request, text, (err, value) =>
        err ? done(fail('badJson')) : done(null, value),
      );
    },
  );
  // Bound per route when it is added: `request.routeOptions` would build an object per request.
  app.addHook('onRoute', (route) => {
    const checksBody = readsBody(route.schema?.body);
    const formats = route.config?.fieldFormats ?? {};
    const hook = (
      request: FastifyRequest,
      _reply: FastifyReply,
      done: HookHandlerDoneFunction,
    ) => {
      if (request.method === 'POST' && request.body === undefined)
        request.body = {};
      const inBody = checksBody ? fieldWithNul(request.body) : undefined;
      if (inBody !== undefined)
        return done(
          Object.hasOwn(formats, inBody)
            ? fail(formats[inBody]!)
            : badParam(inBody),
        );
      const inQuery = fieldWithNul(request.query);
      done(inQuery === undefined ? undefined : badParam(inQuery));
    };
    // A route that validates nothing (`me`, `refresh`) runs the check first among its
    // pre-handlers instead: same order, one hook stage fewer per request.
    const stage =
      route.preValidation === undefined &&
      route.schema?.body === undefined &&
      route.schema?.querystring === undefined &&
      route.preHandler !== undefined
        ? 'preHandler'
        : 'preValidation';
    const own = route[stage];
    route[stage] =
      own === undefined
        ? [hook]
        : Array.isArray(own)
          ? [hook, ...own]
          : [hook, own];
  });
}

/**
 * Whether a route reads fields of its body: it declares a body schema with a type. Logout's
 * schema is `Unknown` (no type): it reads nothing it could store and always answers 200.
 */
function readsBody(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && 'type' in schema;
}

/**
 * The top-level field of a parsed body or query string that holds U+0000 anywhere inside it
 * (`body` for a key or a non-object). PostgreSQL text cannot store NUL and fails the whole
 * statement, so such input is refused as a field error before it reaches any database.
 */
export function fieldWithNul(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object')
    return typeof input === 'string' && input.includes('\0')
      ? 'body'
      : undefined;
  if (Array.isArray(input)) return holdsNul(input) ? 'body' : undefined;
  for (const [key, value] of Object.entries(input)) {
    if (key.includes('\0')) return 'body';
    if (holdsNul(value)) return key;
  }
  return undefined;
}

/** Walks a JSON value without recursion: a 64 KiB body can nest thousands of levels deep. */
function holdsNul(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\0')) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const [key, value] of Object.entries(v)) {
        if (key.includes('\0')) return true;
        stack.push(value);
      }
    }
  }
  return false;
}
