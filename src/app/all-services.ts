/**
 * The use cases of every feature, built once by createServices (services.ts). The routes get
 * only their own feature's part of it (routes.ts); the CLI uses all of it.
 */
import type { AccountService } from '../features/sign-in/account-service.js';
import type { AccountEmails } from '../features/sign-in/account-emails.js';
import type { AccountSettingsService } from '../features/account-settings/settings-service.js';
import type { AdminService } from '../features/admin/admin-service.js';
import type { AdminConsoleService } from '../features/admin/console-service.js';
import type { AppService } from '../features/apps/app-service.js';
import type { AuditLog } from '../features/audit/audit-log.js';
import type { AuthorizationService } from '../features/authorization/authorization-service.js';
import type { CorsWhitelist } from '../features/apps/cors-whitelist.js';
import type { DeviceService } from '../features/device/device-service.js';
import type { ReauthService } from '../features/reauth/reauth-service.js';
import type { PasskeyService } from '../features/second-factor/passkey-service.js';
import type { SecondFactorService } from '../features/second-factor/totp-service.js';
import type { SessionService } from '../features/sessions/session-service.js';
import type { TokenService } from '../features/sessions/token-service.js';
import type { UserTransferService } from '../features/admin/user-transfer.js';
import type { OidcServices } from '../features/oidc/oidc-services.js';
import type { UpstreamServices } from '../features/upstream/index.js';
import type { SignInHistory } from '../features/sign-in-history/index.js';
import type { MinecraftServices } from '../features/minecraft/index.js';
import type { AbuseServices } from '../features/abuse/index.js';
import type { WebhookService } from '../features/moderation/index.js';

/** The use cases the HTTP layer and the CLI call; nothing here hands out storage. */
export interface Services {
  readonly accounts: AccountService;
  /** E-mail codes, address verification and changes, password resets. */
  readonly accountEmails: AccountEmails;
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
  /** Sign-in with other accounts: providers, the browser flow, linked accounts (docs/api.md §14). */
  readonly upstream: UpstreamServices;
  /** Every completed sign-in, and the notice of one from a new browser or address (docs/api.md §17). */
  readonly signInHistory: SignInHistory;
  /** Minecraft profiles and the Yggdrasil API for launchers and game servers (docs/api.md §18). */
  readonly minecraft: MinecraftServices;
  /** The CAPTCHA, who may register, and invite codes (docs/api.md §16). */
  readonly abuse: AbuseServices;
  /** Webhook endpoints and their deliveries (docs/api.md §15.2). */
  readonly webhooks: WebhookService;
  /** Readiness: whether the database answers. */
  ready(): Promise<boolean>;
  /** Starts background work (revocation polling); call once before serving. */
  start(): Promise<void>;
  /** Stops background work and closes what the services opened (not the storage). */
  stop(): Promise<void>;
}
