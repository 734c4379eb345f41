import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { RateLimiter } from '../limits/index.js';
import type { Registration } from '../abuse/index.js';
import type { ReauthService } from '../reauth/index.js';
import type { SecondFactorService } from '../second-factor/index.js';
import { AccountLinks } from './account-links.js';
import { BrowserBinding } from './browser-binding.js';
import { UpstreamFlowService } from './flow-service.js';
import { FlowStore } from './flow-store.js';
import { UpstreamLinkService } from './link-service.js';
import { ProviderAdmin } from './provider-admin.js';
import { ProviderDirectory } from './provider-directory.js';
import { LastErrors } from './provider-errors.js';
import { protocols } from './protocols/index.js';
import { UpstreamSignInFinish, type FinishDeps } from './sign-in-finish.js';
import type { LinkDeps } from './account-links.js';
import type { FlowDeps } from './flow-service.js';
import type { LinkServiceDeps } from './link-service.js';
import type { UpstreamFlowRepo, UpstreamProviderRepo } from './repository.js';
import type { AuditRepo } from '../audit/index.js';
import { RoleMapSync, type RoleSync } from './role-map-sync.js';

/** Sign-in with other accounts (docs/api.md §14) as the routes and the CLI use it. */
export interface UpstreamServices {
  /** Adding, changing and removing providers (CLI, admin API, console). */
  readonly providers: ProviderAdmin;
  /** `/login/{id}` and its callback. */
  readonly flows: UpstreamFlowService;
  /** The page's finishing steps: the sign-in (second factor included), linking by proof of the address's account. */
  readonly finish: UpstreamSignInFinish;
  /** Linked accounts on /account and for administrators. */
  readonly links: UpstreamLinkService;
}

/** What the upstream services are built from. */
export type UpstreamDeps = FlowDeps &
  FinishDeps &
  LinkDeps &
  LinkServiceDeps & {
    readonly log: Logger;
    readonly storage: {
      readonly upstreamProviders: UpstreamProviderRepo;
      readonly upstreamFlows: UpstreamFlowRepo;
      readonly audit: AuditRepo;
    };
    readonly config: Pick<Config, 'jwtSecret' | 'baseUrl'>;
  };

export function createUpstreamServices(
  kit: UpstreamDeps,
  limiter: RateLimiter,
  secondFactor: Pick<SecondFactorService, 'checkSignIn'>,
  reauth: Pick<ReauthService, 'prove'>,
  registration: Pick<Registration, 'open' | 'refusesUpstreamEmail'>,
  roleSync: RoleSync,
): UpstreamServices {
  const { config, storage, now } = kit;
  const directory = new ProviderDirectory(
    storage.upstreamProviders,
    config.jwtSecret,
    now,
    (provider, err) =>
      kit.log.error(
        { err, provider },
        'the secret of a sign-in provider cannot be opened (was JWT_SECRET changed?); set it again',
      ),
  );
  const binding = new BrowserBinding(config.baseUrl);
  const store = new FlowStore(
    storage.upstreamFlows,
    binding,
    config.jwtSecret,
    now,
  );
  const links = new AccountLinks(kit, directory, registration);
  const roleMaps = new RoleMapSync(
    storage.upstreamLinks,
    roleSync,
    async (userId) => (await storage.users.findById(userId))?.roles,
    kit.audit,
    kit.log,
  );
  return {
    providers: new ProviderAdmin(
      storage.upstreamProviders,
      directory,
      kit.audit,
      config.baseUrl,
      now,
      new LastErrors(storage.audit),
    ),
    flows: new UpstreamFlowService(
      kit,
      directory,
      store,
      binding,
      links,
      protocols(now),
      limiter,
      roleMaps,
    ),
    finish: new UpstreamSignInFinish(
      kit,
      store,
      links,
      directory,
      secondFactor,
      reauth,
      roleMaps,
    ),
    links: new UpstreamLinkService(
      kit,
      links,
      directory,
      store,
      binding,
      reauth,
    ),
  };
}
