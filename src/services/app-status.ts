import { isActive } from '../domain/app-state.js';
import type { AppRepo } from '../storage/types.js';
import type { ChangeBus } from './change-bus.js';
import { NOT_CACHED, ReloadingCache } from './reloading-cache.js';

const MAX_CACHED_APPS = 10_000;

/**
 * Whether the application a token was issued to is still enabled (CONTRACT §2: `me` and
 * `refresh` refuse tokens of a disabled app within 5 s on every instance). Cached like users
 * (services/reloading-cache.ts), so the hot path stays synchronous; an `app` change event
 * (this instance or, over the bus, another) drops the copy at once. Built-in ids have no row and are always active; so is an id
 * without a row, which no disable can have touched.
 */
export class AppStatusCache {
  private readonly status: ReloadingCache<string, boolean>;

  constructor(
    apps: Pick<AppRepo, 'findById'>,
    bus: ChangeBus,
    private readonly builtIn: ReadonlySet<string>,
    now: () => number = Date.now,
  ) {
    this.status = new ReloadingCache(async (clientId) => {
      const app = await apps.findById(clientId);
      return app === undefined || isActive(app.status);
    }, MAX_CACHED_APPS, now);
    bus.subscribe((e) => {
      if (e.type === 'app') this.status.forget(e.clientId);
    });
  }

  /** Without waiting when a recent copy is cached; NOT_CACHED: call active() and wait. */
  cachedActive(clientId: string): boolean | typeof NOT_CACHED {
    return this.builtIn.has(clientId) ? true : this.status.cached(clientId);
  }

  active(clientId: string): Promise<boolean> {
    return this.builtIn.has(clientId) ? Promise.resolve(true) : this.status.get(clientId);
  }
}
