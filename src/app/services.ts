import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Storage } from './storage.js';
import { AccountService } from '../features/sign-in/account-service.js';
import { AccountEmails } from '../features/sign-in/account-emails.js';
import { AccountSettingsService } from '../features/account-settings/settings-service.js';
import { AdminService } from '../features/admin/admin-service.js';
import { AdminConsoleService } from '../features/admin/console-service.js';
import { AppCache } from '../features/apps/app-cache.js';
import { AnnouncingRefreshTokenRepo } from '../features/oidc/announcing-families.js';
import { AppStatusCache } from '../features/apps/app-status.js';
import { AppService } from '../features/apps/app-service.js';
import { AuditLog } from '../features/audit/audit-log.js';
import { AuthorizationService } from '../features/authorization/authorization-service.js';
import { CodeReplays } from '../features/authorization/code-replay.js';
import { LocalChangeBus, type ChangeBus } from '../platform/bus/change-bus.js';
import { ClientDirectory } from '../features/apps/client-directory.js';
import type { ServiceKit } from './kit.js';
import type { Services } from './all-services.js';
import { CorsWhitelist } from '../features/apps/cors-whitelist.js';
import { DeviceService } from '../features/device/device-service.js';
import { Housekeeping } from '../features/housekeeping/housekeeping.js';
import { RateLimiter } from '../features/limits/rate-limiter.js';
import { ReauthService } from '../features/reauth/reauth-service.js';
import {
  logMailer,
  signedBy,
  smtpTransport,
  type Mailer,
} from '../platform/mail/mailer.js';
import { MailOutbox } from '../platform/mail/mail-outbox.js';
import { Passwords } from '../platform/crypto/passwords.js';
import { PasskeyService } from '../features/second-factor/passkey-service.js';
import { PublishingAppRepo, PublishingUserRepo } from './publishing-repos.js';
import { providerRoleSync } from './provider-role-sync.js';
import {
  memoryCounters,
  type RateCounters,
} from '../platform/rate-limit/counters.js';
import { SecondFactorService } from '../features/second-factor/totp-service.js';
import { SessionService } from '../features/sessions/session-service.js';
import { RevokedTokens } from '../features/sessions/revoked-tokens.js';
import { SignIns } from '../features/sessions/sign-ins.js';
import { TokenService } from '../features/sessions/token-service.js';
import { UserCache } from '../features/sessions/user-cache.js';
import { UserTransferService } from '../features/admin/user-transfer.js';
import { createOidcServices } from '../features/oidc/oidc-services.js';
import { createUpstreamServices } from '../features/upstream/upstream-services.js';
import { SignInHistory } from '../features/sign-in-history/index.js';
import { createMinecraftServices } from '../features/minecraft/index.js';
import { Captcha, Invites, Registration } from '../features/abuse/index.js';
import { createModerationServices } from '../features/moderation/moderation-services.js';

export interface ServiceOptions {
  now?: () => number;
  bus?: ChangeBus;
  /** Rate-limit counters shared with other instances (Redis, cluster primary); memory otherwise. */
  rateCounters?: RateCounters;
  /** Sends e-mail instead of the mail outbox (SMTP_URL) or the log. */
  mailer?: Mailer;
}

export function createServices(
  config: Config,
  storage: Storage,
  log: Logger,
  opts: ServiceOptions = {},
): Services {
  const now = opts.now ?? Date.now;
  const bus = opts.bus ?? new LocalChangeBus();
  // Services write users and apps through these, so every write announces itself.
  const written = {
    ...repositoriesOf(storage),
    users: new PublishingUserRepo(storage.users, bus),
    apps: new PublishingAppRepo(storage.apps, bus),
  };
  const userCache = new UserCache(written.users, bus, now);
  const revokedTokens = new RevokedTokens(written.revocations, bus, now);
  // Family revocations also enter the revoked set, so access-token checks need no read.
  const repos = {
    ...written,
    refreshTokens: new AnnouncingRefreshTokenRepo(
      storage.refreshTokens,
      revokedTokens,
      config.accessTokenTtl,
      now,
    ),
  };
  // Hot paths read apps through one cache; admin and console reads go to the database.
  const appCache = new AppCache(repos.apps, bus, now);
  const clients = new ClientDirectory(appCache, config);
  const appStatus = new AppStatusCache(
    appCache,
    new Set([config.centerAppId, config.gameAppId]),
  );
  // A sign-in that ends takes the OpenID Connect authorizations made from it along (Back-Channel Logout).
  const endOidcSession = async (sid: string, userId: number) => {
    await repos.refreshTokens.revokeFamiliesOfSession(sid, userId, now());
  };
  const signIns = new SignIns(
    repos.sessions,
    revokedTokens,
    config,
    now,
    (err) => log.warn({ err }, 'could not record session use'),
    endOidcSession,
  );
  // With SMTP_URL every e-mail goes through the mail outbox; without it, to the log.
  const mailOutbox =
    config.smtpUrl && !opts.mailer
      ? new MailOutbox({
          repo: storage.mail,
          transport: smtpTransport(config.smtpUrl, config.mailFrom),
          jwtSecret: config.jwtSecret,
          now,
          log,
        })
      : undefined;
  const kit: ServiceKit = {
    config,
    storage: repos,
    now,
    log,
    userCache,
    revokedTokens,
    clients,
    signIns,
    tokens: new TokenService(
      config,
      userCache,
      revokedTokens,
      appStatus,
      now,
      (sid) => signIns.seen(sid),
      (claims) => signIns.signedOut(claims),
    ),
    passwords: new Passwords(),
    mailer: signedBy(
      config.siteNames,
      opts.mailer ??
        mailOutbox ??
        logMailer(log, config.nodeEnv !== 'production'),
    ),
    audit: new AuditLog(repos.audit, now, (err) =>
      log.error({ err }, 'audit write failed'),
    ),
  };
  // Every way of signing in reports to the audit log; the history listens there.
  const signInHistory = new SignInHistory(kit);
  kit.audit.onSignIn((event) => signInHistory.record(event));
  const housekeeping = new Housekeeping(repos, revokedTokens, now, log);
  // One limiter over the shared counters, handed to every service that applies a rule.
  const rateCounters = opts.rateCounters ?? memoryCounters();
  const limiter = new RateLimiter(
    rateCounters,
    config.limits,
    config.ipRateLimits,
  );
  const secondFactor = new SecondFactorService(kit, limiter);
  const reauth = new ReauthService(kit, limiter, secondFactor);
  const abuse = {
    captcha: new Captcha(kit),
    registration: new Registration<ServiceKit['storage']>(kit),
    invites: new Invites(kit),
  };
  const session = new SessionService(kit);
  const accounts = new AccountService(kit, limiter, secondFactor, abuse);
  const accountEmails = new AccountEmails(
    kit,
    limiter,
    abuse.captcha,
    reauth,
    session,
  );
  const settings = new AccountSettingsService(kit, reauth, signInHistory);
  // The v1 exchange and the OpenID Connect code grant handle a replayed code the same way.
  const codeReplays = new CodeReplays(
    repos.codes,
    revokedTokens,
    (familyId, at) => repos.refreshTokens.revokeFamily(familyId, at),
    kit.audit,
    now,
  );
  const upstream = createUpstreamServices(
    kit,
    limiter,
    secondFactor,
    reauth,
    abuse.registration,
    providerRoleSync(repos.users, kit.audit, now),
  );
  const minecraft = createMinecraftServices(
    kit,
    limiter,
    secondFactor,
    abuse.captcha,
  );
  const oidc = createOidcServices(
    config,
    { ...repos, apps: appCache },
    {
      userCache,
      revokedTokens,
      tokens: kit.tokens,
      audit: kit.audit,
      limiter,
      codeReplays,
      now,
    },
  );
  // The outbox also carries Back-Channel Logout tokens, signed by the provider when sent.
  const moderation = createModerationServices(kit, (d, at) =>
    oidc.logoutTokens.render(d, at),
  );
  return {
    accounts,
    accountEmails,
    settings,
    adminConsole: new AdminConsoleService(kit, accountEmails, settings),
    secondFactor,
    reauth,
    passkeys: new PasskeyService(kit, (user) =>
      upstream.links.signsInWithoutPasskeys(user),
    ),
    admin: new AdminService(kit),
    apps: new AppService(kit),
    authorization: new AuthorizationService(kit, limiter, codeReplays),
    device: new DeviceService(kit, limiter),
    transfer: new UserTransferService(repos.users, now),
    session,
    tokens: kit.tokens,
    audit: kit.audit,
    cors: new CorsWhitelist(
      clients,
      repos.apps,
      bus,
      config.corsCacheTtl * 1000,
      now,
    ),
    oidc,
    upstream,
    signInHistory,
    minecraft,
    abuse,
    webhooks: moderation.webhooks,
    ready: () => storage.ping(),
    async start() {
      await revokedTokens.start();
      userCache.start();
      appCache.start();
      housekeeping.start();
      moderation.delivery.start();
      mailOutbox?.start();
      await kit.passwords.warmUp();
      // The first start creates the signing key; from then on the keys poll for rotations.
      await oidc.keys
        .current()
        .catch((err: unknown) =>
          log.error({ err }, 'signing key not ready; retried on first use'),
        );
      await minecraft
        .start()
        .catch((err: unknown) =>
          log.error(
            { err },
            'Minecraft signing key not ready; retried on first use',
          ),
        );
    },
    async stop() {
      oidc.keys.stop();
      await moderation.delivery.stop();
      // What is still queued stays in the table for the next start.
      await mailOutbox?.stop();
      revokedTokens.stop();
      userCache.stop();
      appCache.stop();
      await signIns.flush();
      housekeeping.stop();
      await rateCounters.close();
      await bus.close();
    },
  };
}

/** The repositories of a backend, without its lifecycle. */
function repositoriesOf(storage: Storage): ServiceKit['storage'] {
  const {
    kind: _kind,
    migrate: _migrate,
    ping: _ping,
    close: _close,
    ...repositories
  } = storage;
  return repositories;
}
