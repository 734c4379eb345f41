import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '../../errors/index.js';
import { isActive } from '../../domain/app-state.js';
import { allowedOriginsOf } from '../../domain/redirect.js';
import type { Services } from '../../services/index.js';
import type { AppRepo } from '../../storage/types.js';

/** The endpoints open to browsers on other origins (SPEC §5); register/login are not. */
const CORS_PATHS = new Set(['client_info', 'authorize', 'exchange', 'me', 'refresh', 'logout'].map((p) => `/api/v1/auth/${p}`));
const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-max-age': '60',
} as const;
const MAX_CACHED_APPS = 10_000;

interface Cached {
  origins: ReadonlySet<string>;
  loadedAt: number;
}

/**
 * Origin whitelists, kept up to CORS_CACHE_TTL seconds (SPEC §5 allows 60 s). A local app
 * write, or one announced on the change bus, drops the cached entries at once. Only the
 * CORS headers use this; every body check reads the database.
 */
export class CorsWhitelist {
  private union: Cached | undefined;
  private readonly perApp = new Map<string, Cached>();

  constructor(private readonly apps: AppRepo, private readonly ttlMs: number, private readonly now: () => number) {}

  invalidate(clientId?: string): void {
    this.union = undefined;
    if (clientId === undefined) this.perApp.clear();
    else this.perApp.delete(clientId);
  }

  private fresh(c: Cached | undefined): c is Cached {
    return c !== undefined && this.now() - c.loadedAt < this.ttlMs;
  }

  /** Origins of every active app. */
  async all(): Promise<ReadonlySet<string>> {
    if (this.fresh(this.union)) return this.union.origins;
    const origins = new Set((await this.apps.listActive()).flatMap(allowedOriginsOf));
    if (this.ttlMs > 0) this.union = { origins, loadedAt: this.now() };
    return origins;
  }

  /** Origins of one app: empty when it is unknown or not active (a single-row lookup). */
  async of(clientId: string): Promise<ReadonlySet<string>> {
    const hit = this.perApp.get(clientId);
    if (this.fresh(hit)) return hit.origins;
    const app = await this.apps.findById(clientId);
    const origins = new Set(app && isActive(app.status) ? allowedOriginsOf(app) : []);
    if (this.ttlMs > 0) {
      if (this.perApp.size >= MAX_CACHED_APPS) this.perApp.clear();
      this.perApp.set(clientId, { origins, loadedAt: this.now() });
    }
    return origins;
  }

  async allows(origin: string, clientId: string | undefined): Promise<boolean> {
    if (origin === 'null') return false;
    const origins = clientId === undefined ? await this.all() : await this.of(clientId);
    return origins.has(origin);
  }
}

const pathOf = (request: FastifyRequest): string => request.url.split('?', 1)[0]!;

/** The client_id a request names: the query (preflight and GET) or, for actual requests, the body. */
function namedClientId(request: FastifyRequest): string | undefined {
  const fromQuery = (request.query as Record<string, unknown> | undefined)?.client_id;
  if (typeof fromQuery === 'string') return fromQuery;
  const body = request.body;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const fromBody = (body as Record<string, unknown>).client_id;
    if (typeof fromBody === 'string') return fromBody;
  }
  return undefined;
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) void reply.header('vary', 'Origin');
  else if (!String(vary).split(',').some((v) => v.trim().toLowerCase() === 'origin')) void reply.header('vary', `${String(vary)}, Origin`);
}

/** CORS for the endpoints of SPEC §5 (CONTRACT §5), with the 403 preflight body of SPEC §7. */
export async function registerCors(app: FastifyInstance, services: Services) {
  const whitelist = new CorsWhitelist(services.storage.apps, services.config.corsCacheTtl * 1000, services.now);
  services.bus.subscribe((e) => {
    if (e.type === 'app') whitelist.invalidate(e.clientId);
  });

  // Preflights for any path: a path outside CORS_PATHS is refused like an unknown origin.
  app.route({
    method: 'OPTIONS',
    url: '*',
    schema: { hide: true },
    handler: async (request, reply) => {
      const origin = request.headers.origin;
      if (origin === undefined) return reply.code(404).send({ ok: false, msg: MSG.notFound });
      addVary(reply);
      const allowed = CORS_PATHS.has(pathOf(request)) && (await whitelist.allows(origin, namedClientId(request)));
      if (!allowed) return reply.code(403).send({ ok: false, msg: MSG.originNotAllowed });
      return reply.code(204).headers({ 'access-control-allow-origin': origin, ...PREFLIGHT_HEADERS }).send();
    },
  });

  // Actual requests are always processed; only a whitelisted Origin is echoed, errors included.
  // Callback style: a request without Origin (a back end calling `me`) costs no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'OPTIONS' || !CORS_PATHS.has(pathOf(request))) return done(null, payload);
    addVary(reply);
    const origin = request.headers.origin;
    if (origin === undefined) return done(null, payload);
    whitelist.allows(origin, namedClientId(request)).then((allowed) => {
      if (allowed) void reply.header('access-control-allow-origin', origin);
    }, (err: unknown) => {
      request.log.warn({ err }, 'CORS whitelist lookup failed');
    }).then(() => done(null, payload));
  });
}
