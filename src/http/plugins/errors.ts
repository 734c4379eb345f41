import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, MSG, badParam } from '../../errors/index.js';

/** The public field a schema failure concerns: `/redirect_uris/0` → `redirect_uris`. */
function fieldOf(err: FastifyError): string {
  const v = err.validation?.[0];
  if (!v) return 'body';
  const missing = (v.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (missing) return missing;
  const path = v.instancePath.split('/').filter(Boolean)[0];
  return path ?? 'body';
}

/** Maps every error, ours or Fastify's, to `{ ok:false, msg }` with the status of CONTRACT §0. */
export function toFailure(err: FastifyError | AppError | Error): { status: number; body: Record<string, unknown> } {
  if (err instanceof AppError) return { status: err.status, body: { ok: false, msg: err.msg, ...err.extra } };
  const e = err as FastifyError;
  if (e.validation) return { status: 400, body: { ok: false, msg: badParam(fieldOf(e)).msg } };
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return { status: 415, body: { ok: false, msg: MSG.notJson } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { ok: false, msg: MSG.tooLarge } };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { ok: false, msg: MSG.badJson } };
  }
  if (err instanceof SyntaxError || e.code?.startsWith('FST_ERR_CTP_')) {
    return { status: e.statusCode === 413 ? 413 : 400, body: { ok: false, msg: e.statusCode === 413 ? MSG.tooLarge : MSG.badJson } };
  }
  if (e.statusCode === 429) return { status: 429, body: { ok: false, msg: MSG.rateLimited } };
  if (e.statusCode === 404) return { status: 404, body: { ok: false, msg: MSG.notFound } };
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return { status: e.statusCode, body: { ok: false, msg: badParam('body').msg } };
  }
  return { status: 500, body: { ok: false, msg: MSG.internal } };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const { status, body } = toFailure(err as FastifyError);
    if (status >= 500) request.log.error({ err }, 'request failed');
    void reply.code(status).send(body);
  });
  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ ok: false, msg: MSG.notFound });
  });
}

/**
 * JSON bodies: an empty body reads as `{}` (CONTRACT §0), `__proto__`/`constructor` keys
 * are dropped, anything unparsable is a 400.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  // Only JSON is read; any other declared type is a 415 (CONTRACT §0).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    parseJson(request, text, (err, value) => (err ? done(new AppError(400, MSG.badJson)) : done(null, value)));
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method === 'POST' && request.body === undefined) request.body = {};
    done();
  });
}
