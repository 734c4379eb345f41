import { isActive } from './app-state.js';
import type { App } from './repository.js';
import type { AppCache } from './app-cache.js';
import { NOT_CACHED } from '../../platform/cache/reloading-cache.js';

const activeRow = (app: App | undefined) => app === undefined || isActive(app.status);

/**
 * Whether the application a token was issued to is still enabled (docs/api.md §3: `me` and
 * `refresh` refuse tokens of a disabled app within 5 s on every instance), read from the
 * app cache so the hot path stays synchronous. Built-in ids have no row and are always
 * active; so is an id without a row, which no disable can have touched.
 */
export class AppStatusCache {
  constructor(private readonly apps: AppCache, private readonly builtIn: ReadonlySet<string>) {}

  /** Without waiting when a recent copy is cached; NOT_CACHED: call active() and wait. */
  cachedActive(clientId: string): boolean | typeof NOT_CACHED {
    if (this.builtIn.has(clientId)) return true;
    const app = this.apps.cached(clientId);
    return app === NOT_CACHED ? NOT_CACHED : activeRow(app);
  }

  async active(clientId: string): Promise<boolean> {
    return this.builtIn.has(clientId) || activeRow(await this.apps.findById(clientId));
  }
}
