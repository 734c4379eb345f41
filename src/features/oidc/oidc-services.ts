import type { Config, OidcSigningAlg } from '../../config/index.js';
import type { AppCache } from '../apps/index.js';
import type { AuditLog } from '../audit/index.js';
import type { CodeReplays } from '../authorization/index.js';
import type { AuthCodeRepo } from '../authorization/index.js';
import type { DeviceCodeRepo } from '../device/index.js';
import type { Atomically } from '../../platform/transactions/atomically.js';
import type { RateLimiter } from '../limits/index.js';
import type {
  RevokedTokens,
  SessionRepo,
  TokenService,
  UserCache,
} from '../sessions/index.js';
import type {
  ConsentRepo,
  RefreshTokenRepo,
  SigningKeyRepo,
} from './repository.js';
import { AuthorizeFlow } from './authorize-flow.js';
import { AuthorizedApps } from './authorized-apps.js';
import { LogoutTokens } from './backchannel-logout.js';
import { BrowserSessions } from './browser-session.js';
import { ClientAuthenticator } from './client-auth.js';
import { DeviceGrant } from './device-grant.js';
import { EndSession } from './end-session.js';
import { LogoutConfirmations } from './logout-confirmation.js';
import { TokenGrants } from './grants.js';
import { TokenIntrospection } from './introspection.js';
import { TokenIssuer } from './issuer.js';
import { SigningKeys } from './keys.js';
import { Tickets } from './tickets.js';
import { AccessTokenCheck } from './token-checks.js';
import { AdminClientAccess } from './admin-client-access.js';
import { TokenMinter } from './token-minter.js';
import { TokenEndpoint } from './token-endpoint.js';

/** The use cases of the OAuth 2.0 / OpenID Connect provider (docs/api.md §12), shared by its endpoints. */
export interface OidcServices {
  readonly issuer: string;
  readonly signingAlg: OidcSigningAlg;
  readonly now: () => number;
  /** The v1 API's exchange limits, applied to failed token requests as well. */
  readonly limiter: RateLimiter;
  readonly keys: SigningKeys;
  readonly minter: TokenMinter;
  readonly clients: ClientAuthenticator;
  readonly grants: TokenGrants;
  readonly token: TokenEndpoint;
  readonly deviceGrant: DeviceGrant;
  readonly accessCheck: AccessTokenCheck;
  /** Which application a client_credentials token with an admin scope acts for (docs/api.md §15.3). */
  readonly adminClients: AdminClientAccess;
  readonly introspection: TokenIntrospection;
  /** The pages' side: the browser session cookie, authorization tickets, consent. */
  readonly sessions: BrowserSessions;
  readonly tickets: Tickets;
  readonly authorize: AuthorizeFlow;
  readonly authorizedApps: AuthorizedApps;
  readonly endSession: EndSession;
  /** Signs the queued Back-Channel Logout tokens when the outbox sends them. */
  readonly logoutTokens: LogoutTokens;
}

/** Apps come through the per-instance cache (features/apps/app-cache.ts). */
interface OidcRepos {
  readonly codes: AuthCodeRepo;
  readonly consents: ConsentRepo;
  readonly devices: DeviceCodeRepo;
  readonly refreshTokens: RefreshTokenRepo;
  readonly signingKeys: SigningKeyRepo;
  readonly sessions: SessionRepo;
  readonly apps: AppCache;
  /** The code and device grants store what they issue with the use of the code. */
  readonly atomically: Atomically<{
    codes: AuthCodeRepo;
    devices: DeviceCodeRepo;
    refreshTokens: RefreshTokenRepo;
  }>;
}

/** The signing keys of a configuration; the `keys rotate` command uses them too. */
export function signingKeysFor(
  config: Pick<
    Config,
    'oidcSigningAlg' | 'jwtSecret' | 'accessTokenTtl' | 'idTokenTtl'
  >,
  keys: SigningKeyRepo,
  now: () => number,
): SigningKeys {
  return new SigningKeys(
    keys,
    {
      alg: config.oidcSigningAlg,
      jwtSecret: config.jwtSecret,
      // A replaced key stays published while tokens it signed can still be valid, plus a margin.
      publishRetiredMs:
        (Math.max(config.accessTokenTtl, config.idTokenTtl) + 300) * 1000,
    },
    now,
  );
}

/** The settings the OpenID provider reads; the rest of the configuration never reaches it. */
type OidcSettings = Pick<
  Config,
  | 'baseUrl'
  | 'centerAppId'
  | 'gameAppId'
  | 'jwtSecret'
  | 'oidcSigningAlg'
  | 'accessTokenTtl'
  | 'idTokenTtl'
  | 'refreshTokenTtl'
  | 'authCodeTtl'
>;

export function createOidcServices(
  config: OidcSettings,
  storage: OidcRepos,
  collaborators: {
    userCache: UserCache;
    revokedTokens: RevokedTokens;
    tokens: TokenService;
    audit: AuditLog;
    limiter: RateLimiter;
    codeReplays: CodeReplays;
    now: () => number;
  },
): OidcServices {
  const { userCache, revokedTokens, tokens, audit, limiter, codeReplays, now } =
    collaborators;
  const issuer = config.baseUrl;
  const keys = signingKeysFor(config, storage.signingKeys, now);
  const minter = new TokenMinter(
    keys,
    {
      issuer,
      accessTokenTtl: config.accessTokenTtl,
      idTokenTtl: config.idTokenTtl,
    },
    now,
  );
  const tokenIssuer = new TokenIssuer(
    storage.refreshTokens,
    minter,
    {
      accessTokenTtl: config.accessTokenTtl,
      refreshTokenTtl: config.refreshTokenTtl,
    },
    now,
  );
  const accessCheck = new AccessTokenCheck(
    minter,
    userCache,
    revokedTokens,
    storage.apps,
    now,
  );
  const sessions = new BrowserSessions(
    tokens,
    config.centerAppId,
    config.baseUrl,
    now,
  );
  const tickets = new Tickets(config.jwtSecret, config.baseUrl, now);
  const clients = new ClientAuthenticator(
    storage.apps,
    [config.centerAppId, config.gameAppId],
    issuer,
  );
  const grants = new TokenGrants({
    codes: storage.codes,
    replays: codeReplays,
    refreshTokens: storage.refreshTokens,
    users: userCache,
    revokedTokens,
    issuer: tokenIssuer,
    minter,
    audit,
    atomically: storage.atomically,
    now,
  });
  const deviceGrant = new DeviceGrant(
    storage.devices,
    userCache,
    tokenIssuer,
    audit,
    storage.atomically,
    now,
  );
  return {
    issuer,
    signingAlg: config.oidcSigningAlg,
    now,
    limiter,
    keys,
    minter,
    clients,
    grants,
    token: new TokenEndpoint(clients, grants, deviceGrant, limiter),
    deviceGrant,
    accessCheck,
    adminClients: new AdminClientAccess(accessCheck, storage.apps),
    introspection: new TokenIntrospection(
      accessCheck,
      storage.refreshTokens,
      userCache,
      revokedTokens,
      tokens,
      minter,
      issuer,
      now,
    ),
    sessions,
    tickets,
    authorize: new AuthorizeFlow(
      {
        apps: storage.apps,
        codes: storage.codes,
        consents: storage.consents,
        sessions: storage.sessions,
      },
      tickets,
      {
        issuer,
        authCodeTtl: config.authCodeTtl,
        reservedClientIds: [config.centerAppId, config.gameAppId],
      },
      audit,
      now,
    ),
    authorizedApps: new AuthorizedApps(
      {
        consents: storage.consents,
        apps: storage.apps,
        refreshTokens: storage.refreshTokens,
      },
      audit,
      now,
    ),
    logoutTokens: new LogoutTokens(keys, issuer),
    endSession: new EndSession(
      storage.apps,
      sessions,
      new LogoutConfirmations(config.jwtSecret),
      (kid) => keys.publicKey(kid),
      issuer,
      audit,
    ),
  };
}
