import type { Reason } from '../../errors/index.js';
import { isActive } from './app-state.js';
import type { App } from './repository.js';
import type { AppCache } from './app-cache.js';
import { NOT_CACHED } from '../../platform/cache/reloading-cache.js';

/**
 * What a client is being used for. The authorization-code flow (and CORS for it) takes only
 * registered applications: the center's own ids never act as OAuth clients, or a code could
 * be traded for a first-party token. Device login also takes the built-in center and game.
 */
export type ClientPurpose = 'authorization_code' | 'cors' | 'device';

export interface ResolvedClient {
  clientId: string;
  displayName: string;
  /** The registered application; undefined for the built-in center and game. */
  app?: App;
}

export type ClientResolution = { ok: true; client: ResolvedClient } | { ok: false; reason: Extract<Reason, 'unknownApp' | 'appDisabled'> };

/** The one answer to "is this client usable for X?", over the app cache (features/apps/app-cache.ts). */
export class ClientDirectory {
  private readonly builtIn: ReadonlyMap<string, string>;

  constructor(private readonly apps: Pick<AppCache, 'findById' | 'cached'>, ids: { centerAppId: string; gameAppId: string; siteName: string }) {
    this.builtIn = new Map([[ids.centerAppId, ids.siteName], [ids.gameAppId, 'Game']]);
  }

  async resolveClient(clientId: string, purpose: ClientPurpose): Promise<ClientResolution> {
    return this.resolveClientNow(clientId, purpose);
  }

  /**
   * resolveClient() without a promise when the app row is cached (nearly always): the pages
   * call client_info on every visit of the authorization page.
   */
  resolveClientNow(clientId: string, purpose: ClientPurpose): ClientResolution | Promise<ClientResolution> {
    const builtInName = this.builtIn.get(clientId);
    if (builtInName !== undefined) {
      return purpose === 'device' ? { ok: true, client: { clientId, displayName: builtInName } } : { ok: false, reason: 'unknownApp' };
    }
    const cached = this.apps.cached(clientId);
    return cached === NOT_CACHED ? this.apps.findById(clientId).then(judgeApp) : judgeApp(cached);
  }
}

function judgeApp(app: App | undefined): ClientResolution {
  if (!app) return { ok: false, reason: 'unknownApp' };
  if (!isActive(app.status)) return { ok: false, reason: 'appDisabled' };
  return { ok: true, client: { clientId: app.clientId, displayName: app.displayName, app } };
}
