import { isActive } from './app-state.js';
import type { App } from './repository.js';
import type { AppCache } from './app-cache.js';

const activeRow = (app: App | undefined) => app === undefined || isActive(app.status);

/**
 * Whether the application a token was issued to is still enabled (docs/api.md §3: `me` and
 * `refresh` refuse tokens of a disabled app within 5 s on every instance), read from the
 * app cache. Built-in ids have no row and are always active; so is an id without a row,
 * which no disable can have touched.
 */
export class AppStatusCache {
  constructor(private readonly apps: Pick<AppCache, 'inMemory' | 'findById'>, private readonly builtIn: ReadonlySet<string>) {}

  /**
   * For the Bearer guard's check from memory: true when the app is built in or its cached row
   * is active; false when that is not known from memory (active() then tells) or it is not.
   */
  activeInMemory(clientId: string): boolean {
    if (this.builtIn.has(clientId)) return true;
    const app = this.apps.inMemory(clientId);
    return app !== undefined && isActive(app.status);
  }

  async active(clientId: string): Promise<boolean> {
    return this.builtIn.has(clientId) || activeRow(await this.apps.findById(clientId));
  }
}
