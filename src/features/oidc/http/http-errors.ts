import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError, retryAfterHeader } from '../../../errors/index.js';
import { OAuthError } from '../oauth-error.js';

/** Token responses and errors of the standard endpoints are never cached (RFC 6749 §5.1). */
export const NO_STORE = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
} as const;

/** Any error thrown in a standard endpoint, as the RFC error it is. */
export function toOAuthError(err: unknown): OAuthError {
  if (err instanceof OAuthError) return err;
  if (err instanceof AppError) {
    if (err.status === 429)
      return new OAuthError(
        'invalid_request',
        'Too many requests; try again later',
        429,
        retryAfterHeader(err),
      );
    return new OAuthError(
      'invalid_request',
      err.msg,
      err.status >= 500 ? 500 : 400,
    );
  }
  const e = err as FastifyError;
  if (e?.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new OAuthError(
      'invalid_request',
      'The request body is too large',
      413,
    );
  if (e?.code?.startsWith?.('FST_ERR_CTP_') || e instanceof SyntaxError) {
    return new OAuthError(
      'invalid_request',
      'The body must be application/x-www-form-urlencoded',
    );
  }
  if (e?.validation)
    return new OAuthError('invalid_request', 'Malformed request');
  if (
    typeof e?.statusCode === 'number' &&
    e.statusCode >= 400 &&
    e.statusCode < 500
  )
    return new OAuthError('invalid_request', 'Malformed request', e.statusCode);
  return new OAuthError(
    'server_error',
    'The server failed to answer; try again later',
    500,
  );
}

export function sendOAuthError(
  reply: FastifyReply,
  err: OAuthError,
): FastifyReply {
  return reply
    .code(err.status)
    .headers({ ...NO_STORE, ...err.headers })
    .send(err.body());
}

/** Errors of this scope's routes speak RFC 6749 §5.2, not the v1 API's envelope. */
export function registerOAuthErrors(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const oauth = toOAuthError(err);
    if (oauth.status >= 500)
      request.log.error({ err }, 'OAuth endpoint failed');
    void sendOAuthError(reply, oauth);
  });
}

const FORM = 'application/x-www-form-urlencoded';

/** Only form bodies are accepted (docs/api.md §12.4): JSON or anything else is invalid_request. */
export function formBody(
  body: unknown,
  contentType: string | undefined,
): Record<string, string | string[]> {
  const isForm =
    contentType === FORM ||
    (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase() === FORM;
  if (
    !isForm ||
    body === null ||
    typeof body !== 'object' ||
    Array.isArray(body)
  ) {
    throw new OAuthError(
      'invalid_request',
      'The body must be application/x-www-form-urlencoded',
    );
  }
  return body as Record<string, string | string[]>;
}
