import { mayUseAdminScope, type AdminScope, type AppCache } from '../apps/index.js';
import { splitScope } from '../apps/index.js';
import type { AccessTokenCheck } from './token-checks.js';

const BEARER = /^bearer +([A-Za-z0-9\-_.]+)$/i;

/**
 * Machine access to the admin API (docs/api.md §15.3): the application a Bearer header acts
 * for when it is a live client_credentials token that carries `scope` and the application may
 * use that scope now (mayUseAdminScope: active, still granted). A person's token of an
 * application never qualifies, whatever its scope says.
 */
export class AdminClientAccess {
  constructor(
    private readonly accessCheck: Pick<AccessTokenCheck, 'live'>,
    private readonly apps: Pick<AppCache, 'findById'>,
  ) {}

  async clientFor(authorization: string | undefined, scope: AdminScope): Promise<string | undefined> {
    const token = BEARER.exec(authorization ?? '')?.[1];
    if (token === undefined) return undefined;
    const live = await this.accessCheck.live(token);
    if (live === undefined || live.user !== undefined || live.claims.sid !== undefined) return undefined;
    if (!splitScope(live.claims.scope).includes(scope)) return undefined;
    const app = await this.apps.findById(live.claims.client_id);
    return mayUseAdminScope(app, scope) ? live.claims.client_id : undefined;
  }
}
