import type { Reason } from '../../errors/index.js';
import { isActive } from './app-state.js';
import type { App } from './repository.js';
import type { AppCache } from './app-cache.js';

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

  constructor(private readonly apps: Pick<AppCache, 'findById'>, ids: { centerAppId: string; gameAppId: string; siteName: string }) {
    this.builtIn = new Map([[ids.centerAppId, ids.siteName], [ids.gameAppId, 'Game']]);
  }

  async resolveClient(clientId: string, purpose: ClientPurpose): Promise<ClientResolution> {
    const builtInName = this.builtIn.get(clientId);
    if (builtInName !== undefined) {
      return purpose === 'device' ? { ok: true, client: { clientId, displayName: builtInName } } : { ok: false, reason: 'unknownApp' };
    }
    return judgeApp(await this.apps.findById(clientId));
  }
}

function judgeApp(app: App | undefined): ClientResolution {
  if (!app) return { ok: false, reason: 'unknownApp' };
  if (!isActive(app.status)) return { ok: false, reason: 'appDisabled' };
  return { ok: true, client: { clientId: app.clientId, displayName: app.displayName, app } };
}
