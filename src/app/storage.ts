import type { AuditRepo } from '../features/audit/repository.js';
import type { AppRepo } from '../features/apps/repository.js';
import type { AuthCodeRepo } from '../features/authorization/repository.js';
import type { DeviceCodeRepo } from '../features/device/repository.js';
import type {
  EmailCodeRepo,
  UserRepo,
} from '../features/accounts/repository.js';
import type { RoleRepo } from '../features/accounts/role-repository.js';
import type {
  ConsentRepo,
  RefreshTokenRepo,
  SigningKeyRepo,
} from '../features/oidc/repository.js';
import type { ReauthGrantRepo } from '../features/reauth/repository.js';
import type {
  PasskeyRepo,
  SecondFactorRepo,
} from '../features/second-factor/repository.js';
import type {
  RevocationRepo,
  SessionRepo,
} from '../features/sessions/repository.js';
import type { SignInHistoryRepo } from '../features/sign-in-history/index.js';
import type { MinecraftRepos } from '../features/minecraft/repository.js';
import type {
  CaptchaUseRepo,
  InviteRepo,
} from '../features/abuse/repository.js';
import type {
  OutboxRepo,
  WebhookEndpointRepo,
} from '../features/moderation/repository.js';
import type { MailOutboxRepo } from '../platform/mail/mail-outbox.js';
import type {
  UpstreamFlowRepo,
  UpstreamLinkRepo,
  UpstreamProviderRepo,
} from '../features/upstream/repository.js';

/** All repositories of one backend; `close` releases its connections. */
export interface Storage extends Repositories {
  readonly kind: 'sqlite' | 'postgres';
  /** Runs the migrations not yet applied; safe to call from several processes. */
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The repositories of one backend, over its connections or over one transaction. */
export interface Repositories {
  readonly users: UserRepo;
  /** The role catalogue: names, display names, descriptions. */
  readonly roles: RoleRepo;
  readonly revocations: RevocationRepo;
  readonly apps: AppRepo;
  readonly codes: AuthCodeRepo;
  readonly devices: DeviceCodeRepo;
  readonly emailCodes: EmailCodeRepo;
  readonly audit: AuditRepo;
  readonly signingKeys: SigningKeyRepo;
  readonly refreshTokens: RefreshTokenRepo;
  readonly consents: ConsentRepo;
  readonly secondFactors: SecondFactorRepo;
  readonly passkeys: PasskeyRepo;
  readonly sessions: SessionRepo;
  readonly reauthGrants: ReauthGrantRepo;
  readonly upstreamProviders: UpstreamProviderRepo;
  readonly upstreamLinks: UpstreamLinkRepo;
  readonly upstreamFlows: UpstreamFlowRepo;
  readonly signInHistory: SignInHistoryRepo;
  /** Minecraft profiles, textures and the Yggdrasil API's tokens and joins (docs/api.md §18). */
  readonly minecraft: MinecraftRepos;
  readonly captchaUses: CaptchaUseRepo;
  readonly invites: InviteRepo;
  readonly webhooks: WebhookEndpointRepo;
  /** Deliveries of webhook events and logout tokens, written with the changes they announce. */
  readonly outbox: OutboxRepo;
  /** E-mails not yet sent (sealed), and a record of those given up. */
  readonly mail: MailOutboxRepo;
  /**
   * Runs `work` in one transaction (the caller's, when these repositories are already inside
   * one): every write it makes through the repositories it is given commits together, or none
   * does when it throws. `work` uses only those repositories and does nothing slow besides:
   * SQLite has one connection, and any other query waits until the transaction ends.
   */
  atomically<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}
