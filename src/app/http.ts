import Fastify, { LogController, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Services } from './all-services.js';
import { lazyChildLoggerFactoryOf } from '../platform/logging/lazy-logger.js';
import { registerCors } from '../features/apps/cors-plugin.js';
import {
  registerErrorHandling,
  registerJsonBody,
} from '../platform/http/error-replies.js';
import { createMetrics, registerMetrics } from '../platform/http/metrics.js';
import { drainConnectionsOnClose } from '../platform/http/connection-drain.js';
import { registerRequestLog, requestId } from '../platform/http/request-log.js';
import { PAGE_HEADERS, sendNotFoundPage } from '../features/pages/index.js';
import '../features/pages/site-name.js';
import { ALI_HEADER } from '../features/minecraft/index.js';
import { registerFeatures } from './routes.js';

export const BODY_LIMIT = 64 * 1024;
export const REQUEST_TIMEOUT_MS = 30_000;

export interface BuildAppOptions {
  config: Config;
  services: Services;
  logger: Logger;
  /** Time a client has to send its whole request; REQUEST_TIMEOUT_MS unless a test shortens it. */
  requestTimeoutMs?: number;
}

/** Assembles the HTTP service from ready services; no I/O happens here. */
export async function buildApp({
  config,
  services,
  logger,
  requestTimeoutMs = REQUEST_TIMEOUT_MS,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // No logger for Fastify itself: with one, Fastify listens for every response's `finish`
    // and `error` events to time it (docs/performance.md).
    // Requests log through the service's logger all the same (childLoggerFactory below), and
    // the request line and metrics are taken as the answer is handed over (platform/http/request-log.ts).
    logger: false,
    bodyLimit: BODY_LIMIT,
    // A client that trickles its request (slowloris) is cut off instead of holding a socket.
    requestTimeout: requestTimeoutMs,
    // Node cuts a trickling body off only at the later of the two timeouts (headers: 60 s by
    // default), and looks for overdue requests every 30 s: both are tied to the request timeout.
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(
        100,
        Math.floor(requestTimeoutMs / 10),
      ),
    },
    trustProxy: config.trustProxy as never,
    // Fastify's own two lines per request (through a child logger) would dominate the cost
    // of `me`; platform/http/request-log.ts writes one compact line per request instead.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestId,
    requestIdHeader: false,
    childLoggerFactory: lazyChildLoggerFactoryOf(logger),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: {
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        allErrors: false,
      },
    },
  }) as unknown as FastifyInstance;
  // A close waits for the answers in flight, never for a connection that sends nothing.
  drainConnectionsOnClose(app, requestTimeoutMs);
  app.decorateRequest('auth', undefined);
  app.decorateRequest('adminClient', undefined);
  app.decorate('siteNames', config.siteNames);

  const metrics = createMetrics();
  registerRequestLog(app, logger, metrics.http);
  registerErrorHandling(app, sendNotFoundPage);
  registerJsonBody(app);
  registerMetrics(app, metrics);
  if (config.minecraft) {
    // Every answer, pages and failures included: launchers find the API from any address of the site.
    app.addHook('onSend', (_request, reply, payload, done) => {
      void reply.headers(ALI_HEADER);
      done(null, payload);
    });
  }

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Account Center',
        version: '1',
        description:
          'Single sign-on and OAuth-style authorization. Failures are { ok:false, msg }.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
  });
  // The API docs share this origin with the pages, which keep the token in localStorage: they
  // get the same CSP, framing and sniffing headers (docs/api.md §11), their static files included.
  await app.register(async (docs) => {
    docs.addHook('onSend', (_request, reply, payload, done) => {
      void reply.headers(PAGE_HEADERS);
      done(null, payload);
    });
    // The standalone layout's top bar draws the Swagger logo with an inline <style>, which the
    // pages' CSP (style-src 'self') refuses: the base layout has no top bar (and the logo swap runs only in the standalone one).
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { layout: 'BaseLayout' },
    });
  });

  await registerCors(app, services.cors);
  await registerFeatures(app, config, services, metrics);
  return app;
}
