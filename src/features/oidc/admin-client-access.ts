import {
  mayUseAdminScope,
  type AdminScope,
  type AppCache,
} from '../apps/index.js';
import { splitScope } from '../apps/index.js';
import type { AccessTokenCheck } from './token-checks.js';

const BEARER = /^bearer +([A-Za-z0-9\-_.]+)$/i;

/**
 * What a Bearer header is to the admin API (docs/api.md §15.3): a live client_credentials
 * token of an active application (`clientId`), and whether it may use `scope` now (`granted`:
 * the token carries the scope and mayUseAdminScope says the application still has it).
 * Undefined for anything else: no token, an invalid, expired or revoked one, or a person's
 * token of an application, which never qualifies whatever its scope says.
 */
export interface AdminClientVerdict {
  clientId: string;
  granted: boolean;
}

/** Machine access to the admin API: which application a Bearer header acts for, and with what right. */
export class AdminClientAccess {
  constructor(
    private readonly accessCheck: Pick<AccessTokenCheck, 'live'>,
    private readonly apps: Pick<AppCache, 'findById'>,
  ) {}

  /** The verdict on the header for `scope`; with no scope (a route no application may call), never granted. */
  async clientFor(
    authorization: string | undefined,
    scope: AdminScope | undefined,
  ): Promise<AdminClientVerdict | undefined> {
    const token = BEARER.exec(authorization ?? '')?.[1];
    if (token === undefined) return undefined;
    const live = await this.accessCheck.live(token);
    if (
      live === undefined ||
      live.user !== undefined ||
      live.claims.sid !== undefined
    )
      return undefined;
    const clientId = live.claims.client_id;
    if (scope === undefined || !splitScope(live.claims.scope).includes(scope))
      return { clientId, granted: false };
    return {
      clientId,
      granted: mayUseAdminScope(await this.apps.findById(clientId), scope),
    };
  }
}
