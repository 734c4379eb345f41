import { LRUCache } from 'lru-cache';
import { allowedOriginsOf } from './redirect-uris.js';
import type { AppRepo } from './repository.js';
import type { ChangeBus } from '../../platform/bus/change-bus.js';
import type { ClientDirectory } from './client-directory.js';

const MAX_CACHED_APPS = 10_000;

interface Cached {
  origins: ReadonlySet<string>;
  loadedAt: number;
}

/**
 * Origin whitelists, kept up to CORS_CACHE_TTL seconds (docs/api.md §6 allows 60 s). An app write,
 * here or announced on the change bus, drops the cached entries at once. Only the CORS
 * headers use this; body checks read the app through the app cache (features/apps/app-cache.ts),
 * which never keeps a changed row past the change feed's next poll.
 */
export class CorsWhitelist {
  private union: Cached | undefined;
  /** Each app's origins for the TTL, the least recently used dropped past MAX_CACHED_APPS; none with a TTL of 0. */
  private readonly perApp: LRUCache<string, ReadonlySet<string>> | undefined;

  constructor(
    private readonly clients: ClientDirectory,
    private readonly apps: Pick<AppRepo, 'listActive'>,
    bus: ChangeBus,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {
    // ttlResolution 0: every look-up reads the clock, which may be a test's.
    this.perApp =
      ttlMs > 0
        ? new LRUCache({
            max: MAX_CACHED_APPS,
            ttl: ttlMs,
            ttlResolution: 0,
            perf: { now },
          })
        : undefined;
    bus.subscribe((e) => {
      if (e.type === 'app') this.invalidate(e.clientId);
    });
  }

  invalidate(clientId?: string): void {
    this.union = undefined;
    if (clientId === undefined) this.perApp?.clear();
    else this.perApp?.delete(clientId);
  }

  private fresh(c: Cached | undefined): c is Cached {
    return c !== undefined && this.now() - c.loadedAt < this.ttlMs;
  }

  /** Origins of every active app. */
  async all(): Promise<ReadonlySet<string>> {
    if (this.fresh(this.union)) return this.union.origins;
    const origins = new Set(
      (await this.apps.listActive()).flatMap(allowedOriginsOf),
    );
    if (this.ttlMs > 0) this.union = { origins, loadedAt: this.now() };
    return origins;
  }

  /** Origins of one app: empty when it is not usable for CORS (a single-row lookup). */
  async of(clientId: string): Promise<ReadonlySet<string>> {
    const hit = this.perApp?.get(clientId);
    if (hit !== undefined) return hit;
    const resolved = await this.clients.resolveClient(clientId, 'cors');
    const origins = new Set(
      resolved.ok && resolved.client.app
        ? allowedOriginsOf(resolved.client.app)
        : [],
    );
    this.perApp?.set(clientId, origins);
    return origins;
  }

  /** Whether `origin` may call for `clientId` (any active app's origin when no client is named). */
  async allows(origin: string, clientId: string | undefined): Promise<boolean> {
    if (origin === 'null') return false;
    const origins =
      clientId === undefined ? await this.all() : await this.of(clientId);
    return origins.has(origin);
  }
}
