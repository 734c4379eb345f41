import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Storage } from '../storage/types.js';
import { AccountService } from './accounts.js';
import { AccountSettingsService } from './account-settings.js';
import { AdminService } from './admin.js';
import { AdminConsoleService } from './admin-console.js';
import { AppCache } from './app-cache.js';
import { AnnouncingRefreshTokenRepo } from './oidc/announcing-families.js';
import { AppStatusCache } from './app-status.js';
import { AppService } from './apps.js';
import { AuditLog } from './audit.js';
import { AuthorizationService } from './authorization.js';
import { LocalChangeBus, type ChangeBus } from './change-bus.js';
import { ClientDirectory } from './clients.js';
import type { ServiceKit } from './context.js';
import { CorsWhitelist } from './cors-whitelist.js';
import { DeviceService } from './device.js';
import { Housekeeping } from './housekeeping.js';
import { RateLimiter } from './limits.js';
import { ReauthService } from './reauth.js';
import { createMailer, signedBy, type Mailer } from './mail.js';
import { Passwords } from './passwords.js';
import { PasskeyService } from './passkeys.js';
import { PublishingAppRepo, PublishingUserRepo } from './publishing-repos.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit.js';
import { SecondFactorService } from './second-factor.js';
import { SessionService } from './session.js';
import { SessionCache } from './session-state.js';
import { SignIns } from './sign-ins.js';
import { TokenService } from './tokens.js';
import { UserTransferService } from './user-transfer.js';
import { createOidcServices, type OidcServices } from './oidc/index.js';

export interface ServiceOptions {
  now?: () => number;
  bus?: ChangeBus;
  /** Rate-limit counters shared with other instances (Redis, cluster primary); memory otherwise. */
  rateCounters?: RateLimitStore;
  mailer?: Mailer;
}

/** The use cases the HTTP layer and the CLI call; nothing here hands out storage. */
export interface Services {
  readonly accounts: AccountService;
  /** The signed-in user's own profile, password, sessions and deletion. */
  readonly settings: AccountSettingsService;
  readonly admin: AdminService;
  /** User detail, applications and the dashboard for role admin. */
  readonly adminConsole: AdminConsoleService;
  readonly apps: AppService;
  readonly authorization: AuthorizationService;
  readonly device: DeviceService;
  /** Authenticator app and recovery codes. */
  readonly secondFactor: SecondFactorService;
  readonly passkeys: PasskeyService;
  /** Re-authentication for changes to how an account is signed in to (docs/api.md §10). */
  readonly reauth: ReauthService;
  readonly transfer: UserTransferService;
  readonly session: SessionService;
  /** Bearer checks for the guards, and token issue. */
  readonly tokens: TokenService;
  readonly audit: AuditLog;
  /** Origins allowed to call the CORS endpoints, cached up to CORS_CACHE_TTL. */
  readonly cors: CorsWhitelist;
  /** The OAuth 2.0 / OpenID Connect provider's use cases. */
  readonly oidc: OidcServices;
  /** Readiness: whether the database answers. */
  ready(): Promise<boolean>;
  /** Starts background work (revocation polling); call once before serving. */
  start(): Promise<void>;
  /** Stops background work and closes what the services opened (not the storage). */
  stop(): Promise<void>;
}

export function createServices(config: Config, storage: Storage, log: Logger, opts: ServiceOptions = {}): Services {
  const now = opts.now ?? Date.now;
  const bus = opts.bus ?? new LocalChangeBus();
  // Services write users and apps through these, so every write announces itself.
  const written = { ...repositoriesOf(storage), users: new PublishingUserRepo(storage.users, bus), apps: new PublishingAppRepo(storage.apps, bus) };
  const sessionCache = new SessionCache(written, bus, now);
  // Family revocations also enter the revoked set, so access-token checks need no read.
  const repos = { ...written, refreshTokens: new AnnouncingRefreshTokenRepo(storage.refreshTokens, sessionCache, config.accessTokenTtl, now) };
  // Hot paths read apps through one cache; admin and console reads go to the database.
  const appCache = new AppCache(repos.apps, bus, now);
  const clients = new ClientDirectory(appCache, config);
  const appStatus = new AppStatusCache(appCache, new Set([config.centerAppId, config.gameAppId]));
  const signIns = new SignIns(repos.sessions, sessionCache, config, now, (err) => log.warn({ err }, 'could not record session use'));
  const kit: ServiceKit = {
    config, storage: repos, now, log, sessionCache, clients, signIns,
    tokens: new TokenService(config, sessionCache, appStatus, now, (sid) => signIns.seen(sid), (claims) => signIns.signedOut(claims)),
    passwords: new Passwords(),
    mailer: signedBy(config.siteName, opts.mailer ?? createMailer(config.smtpUrl, config.mailFrom, log, config.nodeEnv !== 'production')),
    audit: new AuditLog(repos.audit, now, (err) => log.error({ err }, 'audit write failed')),
    rateCounters: opts.rateCounters ?? new MemoryRateLimitStore(now),
  };
  const housekeeping = new Housekeeping(repos, sessionCache, now, log);
  // One limiter over the shared counters, handed to every service that applies a rule.
  const limiter = new RateLimiter(kit.rateCounters, config.limits, config.ipRateLimits);
  const secondFactor = new SecondFactorService(kit, limiter);
  const reauth = new ReauthService(kit, limiter, secondFactor);
  const accounts = new AccountService(kit, limiter, secondFactor, reauth);
  const settings = new AccountSettingsService(kit, reauth);
  const oidc = createOidcServices(config, { ...repos, apps: appCache }, { sessionCache, tokens: kit.tokens, audit: kit.audit, limiter, now });
  return {
    accounts,
    settings,
    adminConsole: new AdminConsoleService(kit, accounts, settings),
    secondFactor,
    reauth,
    passkeys: new PasskeyService(kit),
    admin: new AdminService(kit),
    apps: new AppService(kit),
    authorization: new AuthorizationService(kit, limiter),
    device: new DeviceService(kit, limiter),
    transfer: new UserTransferService(repos.users, now),
    session: new SessionService(kit, accounts),
    tokens: kit.tokens,
    audit: kit.audit,
    cors: new CorsWhitelist(clients, repos.apps, bus, config.corsCacheTtl * 1000, now),
    oidc,
    ready: () => storage.ping(),
    async start() {
      await sessionCache.start();
      appCache.start();
      housekeeping.start();
      await kit.passwords.warmUp();
      // The first start creates the signing key; from then on the keys poll for rotations.
      await oidc.keys.current().catch((err: unknown) => log.error({ err }, 'signing key not ready; retried on first use'));
    },
    async stop() {
      oidc.keys.stop();
      sessionCache.stop();
      appCache.stop();
      await signIns.flush();
      housekeeping.stop();
      kit.mailer.close();
      await kit.rateCounters.close();
      await bus.close();
    },
  };
}

/** The repositories of a backend, without its lifecycle. */
function repositoriesOf(storage: Storage): ServiceKit['storage'] {
  const { users, revocations, apps, codes, devices, emailCodes, audit, refreshTokens, signingKeys, consents, secondFactors, passkeys, sessions, reauthGrants } = storage;
  return { users, revocations, apps, codes, devices, emailCodes, audit, refreshTokens, signingKeys, consents, secondFactors, passkeys, sessions, reauthGrants };
}
