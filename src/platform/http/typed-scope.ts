import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  preHandlerAsyncHookHandler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { languageOf, type Language } from '../i18n/language.js';
import { arrivalOf, type RequestArrival } from './request-log.js';

/** A Fastify scope whose route schemas (TypeBox contracts) also type the request and the reply. */
export type ContractApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A pre-handler that lets only some callers of a route through (a Bearer check). */
export type Guard = preHandlerAsyncHookHandler;

/**
 * Registers `routes` in a scope of its own, where the route schemas type requests and replies:
 * what one route module sets (hooks, parsers, error handlers) stays inside that scope.
 */
export async function routesInScope<D>(
  app: FastifyInstance,
  routes: (app: ContractApp, deps: D) => Promise<void>,
  deps: D,
): Promise<void> {
  await app.register(async (scope) =>
    routes(scope.withTypeProvider<TypeBoxTypeProvider>(), deps),
  );
}

/** Who is calling, for audit rows and per-IP limits, and the language of the e-mails the call causes. */
export interface Caller {
  ip: string;
  userAgent?: string;
  language?: Language;
  /** When the request reached this process (a refresh race is told from reuse by it). */
  arrival?: RequestArrival;
}

export function callerOf(request: FastifyRequest): Caller {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    language: languageOf(request.headers),
    arrival: arrivalOf(request),
  };
}

/** Bearer routes run after a guard, so `auth` is set; this narrows the type. */
export function authOf(request: FastifyRequest) {
  if (!request.auth) throw new Error('route used without an auth guard');
  return request.auth;
}

export const NO_STORE = {
  'cache-control': 'no-store',
  pragma: 'no-cache',
} as const;
