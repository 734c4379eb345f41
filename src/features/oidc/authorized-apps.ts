import type { AuditLog } from '../audit/index.js';
import type { AppRepo } from '../apps/index.js';
import type { ConsentRepo, RefreshTokenRepo } from './repository.js';
import type { AuthorizedApp } from './pages-contract.js';

const seconds = (ms: number): number => Math.floor(ms / 1000);

/**
 * The applications a person has authorized (remembered consents) for `/account`, and
 * withdrawing one: the consent goes, and so do that app's refresh token families, which
 * also ends the access tokens issued from them at UserInfo and introspection.
 */
export class AuthorizedApps {
  constructor(
    private readonly repos: {
      consents: ConsentRepo;
      apps: AppRepo;
      refreshTokens: RefreshTokenRepo;
    },
    private readonly audit: AuditLog,
    private readonly now: () => number,
  ) {}

  async list(userId: number): Promise<AuthorizedApp[]> {
    const consents = await this.repos.consents.listByUser(userId);
    const apps = await Promise.all(
      consents.map((c) => this.repos.apps.findById(c.clientId)),
    );
    return consents.map((c, i) => ({
      client_id: c.clientId,
      // An app deleted since keeps its id as its name, so the person can still withdraw it.
      display_name: apps[i]?.displayName ?? c.clientId,
      homepage: apps[i]?.homepage ?? '',
      scopes: c.scopes,
      granted_at: seconds(c.createdAt),
      updated_at: seconds(c.updatedAt),
    }));
  }

  /** Idempotent: withdrawing an app that holds nothing is not an error. */
  async revoke(
    user: { id: number; username: string },
    clientId: string,
    ip: string,
  ): Promise<void> {
    const now = this.now();
    const hadConsent = await this.repos.consents.delete(user.id, clientId);
    const families = await this.repos.refreshTokens.revokeFamiliesOf(
      user.id,
      clientId,
      now,
    );
    if (hadConsent || families.length > 0) {
      await this.audit.record('oidc.consent.revoke', {
        actor: user.username,
        ip,
        target: clientId,
        detail: { refresh_families: families.length },
      });
    }
  }
}
