import Fastify, { LogController, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Logger } from 'pino';
import type { Services } from '../services/index.js';
import { lazyChildLoggerFactory } from './lazy-logger.js';
import { authGuards } from './plugins/auth.js';
import { registerCors } from './plugins/cors.js';
import { registerErrorHandling, registerJsonBody } from './plugins/errors.js';
import { createMetrics, registerMetrics } from './plugins/metrics.js';
import type { RouteDeps } from './deps.js';
import { systemRoutes } from './routes/system.js';
import { sessionRoutes } from './routes/session.js';
import { accountRoutes } from './routes/accounts.js';
import { adminRoutes } from './routes/admin.js';
import { auditRoutes } from './routes/audit.js';
import { appsRoutes } from './routes/apps.js';
import { authorizeRoutes } from './routes/authorize.js';
import { deviceRoutes } from './routes/device.js';
import { pagesRoutes } from './routes/pages.js';

export const BODY_LIMIT = 64 * 1024;
export const REQUEST_TIMEOUT_MS = 30_000;

export interface BuildAppOptions {
  services: Services;
  logger: Logger;
}

/** Assembles the HTTP service from ready services; no I/O happens here. */
export async function buildApp({ services, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT,
    // A client that trickles its request (slowloris) is cut off instead of holding a socket.
    requestTimeout: REQUEST_TIMEOUT_MS,
    trustProxy: config.trustProxy as never,
    // Per-request log lines would dominate the cost of `me`; /metrics counts requests instead.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, allErrors: false } },
  }) as unknown as FastifyInstance;
  app.decorateRequest('auth', undefined);

  registerErrorHandling(app);
  registerJsonBody(app);
  const metrics = createMetrics();
  registerMetrics(app, metrics);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Account Center', version: '1', description: 'Single sign-on and OAuth-style authorization. Failures are { ok:false, msg }.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await registerCors(app, services);
  const deps: RouteDeps = { services, guards: authGuards(services.tokens, config.centerAppId), metrics };
  for (const routes of [systemRoutes, sessionRoutes, accountRoutes, adminRoutes, auditRoutes, appsRoutes, authorizeRoutes, deviceRoutes, pagesRoutes]) {
    await app.register(async (scope) => routes(scope, deps));
  }
  return app;
}
