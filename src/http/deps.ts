import type { FastifyRequest } from 'fastify';
import type { Services } from '../services/index.js';
import type { Caller } from '../services/context.js';
import type { AuthGuards } from './plugins/auth.js';
import type { Metrics } from './plugins/metrics.js';

/** What every route module receives. */
export interface RouteDeps {
  services: Services;
  guards: AuthGuards;
  metrics: Metrics;
}

export function callerOf(request: FastifyRequest): Caller {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}

/** Bearer routes run after a guard, so `auth` is set; this narrows the type. */
export function authOf(request: FastifyRequest) {
  if (!request.auth) throw new Error('route used without an auth guard');
  return request.auth;
}

export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const;
