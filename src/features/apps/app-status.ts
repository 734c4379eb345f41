import { isActive } from './app-state.js';
import type { App } from './repository.js';
import type { AppCache } from './app-cache.js';

const activeRow = (app: App | undefined) =>
  app === undefined || isActive(app.status);

/**
 * Whether the application a token was issued to is still enabled (docs/api.md §3: `me` and
 * `refresh` refuse tokens of a disabled app within 5 s on every instance), read from the
 * app cache. Built-in ids have no row and are always active; so is an id without a row,
 * which no disable can have touched.
 */
export class AppStatusCache {
  constructor(
    private readonly apps: Pick<AppCache, 'findById'>,
    private readonly builtIn: ReadonlySet<string>,
  ) {}

  async active(clientId: string): Promise<boolean> {
    return (
      this.builtIn.has(clientId) ||
      activeRow(await this.apps.findById(clientId))
    );
  }
}
