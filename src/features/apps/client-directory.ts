import type { Reason } from '../../errors/index.js';
import { isActive } from './app-state.js';
import type { App } from './repository.js';
import type { AppCache } from './app-cache.js';
import { admits } from './required-roles.js';
import {
  DEFAULT_LANGUAGE,
  type Language,
} from '../../platform/i18n/language.js';

/** The built-in game's name in each language; the center's own is SITE_NAME (config.siteNames). */
export const GAME_APP_NAMES: Readonly<Record<Language, string>> = {
  'zh-CN': '游戏',
  en: 'Game',
};

export interface BuiltInIds {
  centerAppId: string;
  gameAppId: string;
  siteNames: Readonly<Record<Language, string>>;
}

/** The name of a built-in client (the center, the game) in `language`; undefined for any other id. */
export function builtInAppName(
  ids: BuiltInIds,
  clientId: string,
  language: Language = DEFAULT_LANGUAGE,
): string | undefined {
  if (clientId === ids.centerAppId) return ids.siteNames[language];
  if (clientId === ids.gameAppId) return GAME_APP_NAMES[language];
  return undefined;
}

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

export type ClientResolution =
  | { ok: true; client: ResolvedClient }
  | { ok: false; reason: Extract<Reason, 'unknownApp' | 'appDisabled'> };

/** The one answer to "is this client usable for X?", over the app cache (features/apps/app-cache.ts). */
export class ClientDirectory {
  constructor(
    private readonly apps: Pick<AppCache, 'findById'>,
    private readonly ids: BuiltInIds,
  ) {}

  /** How a page in `language` names the client: a built-in one in that language, an app by its own name. */
  nameIn(client: ResolvedClient, language: Language): string {
    return (
      builtInAppName(this.ids, client.clientId, language) ?? client.displayName
    );
  }

  /** Whether tokens for the client may go to a holder of `roles`: built-in clients admit everyone. */
  async admitsRoles(
    clientId: string,
    roles: readonly string[],
  ): Promise<boolean> {
    if (builtInAppName(this.ids, clientId) !== undefined) return true;
    const app = await this.apps.findById(clientId);
    return !app || admits(app, { roles });
  }

  async resolveClient(
    clientId: string,
    purpose: ClientPurpose,
  ): Promise<ClientResolution> {
    const builtInName = builtInAppName(this.ids, clientId);
    if (builtInName !== undefined) {
      return purpose === 'device'
        ? { ok: true, client: { clientId, displayName: builtInName } }
        : { ok: false, reason: 'unknownApp' };
    }
    return judgeApp(await this.apps.findById(clientId));
  }
}

function judgeApp(app: App | undefined): ClientResolution {
  if (!app) return { ok: false, reason: 'unknownApp' };
  if (!isActive(app.status)) return { ok: false, reason: 'appDisabled' };
  return {
    ok: true,
    client: { clientId: app.clientId, displayName: app.displayName, app },
  };
}
