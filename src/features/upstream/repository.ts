/** Repository interfaces of sign-in with other accounts: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */
import type { NewUser, User } from '../accounts/index.js';

export const PROVIDER_TYPES = [
  'oidc',
  'oauth2',
  'github',
  'discord',
  'steam',
  'qq',
  'wechat',
  'google',
  'microsoft',
] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/** Endpoint overrides and per-type options; absent means the type's documented default. */
export interface ProviderSettings {
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
  /** Steam: the OpenID 2.0 endpoint (checkid_setup and check_authentication). */
  openidEndpoint?: string;
  /** Base of the provider's own API (GitHub, Discord, QQ, WeChat, the Steam Web API). */
  apiBase?: string;
  /** oauth2: where the subject, username and e-mail are in the userinfo answer. */
  subjectField?: string;
  usernameField?: string;
  emailField?: string;
  /** discord: only members of this Discord server may sign in. */
  requireGuild?: string;
  /** The provider checked its e-mail addresses: take them as verified. */
  trustEmail?: boolean;
  /** How the center authenticates at the token endpoint; absent: chosen from the provider's discovery (token-auth.ts). */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** Upstream membership → center role (role-map-rules.ts); absent: the provider gives no roles. */
  roleMap?: Record<string, string>;
  /** discord: the server whose roles the map names. */
  roleGuild?: string;
  /** oidc: the claim that lists the memberships; absent: `groups`. */
  roleClaim?: string;
}

export const TOKEN_ENDPOINT_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
] as const;
export type TokenEndpointAuthMethod =
  (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];

/** A provider as stored: secrets sealed, never in clear. */
export interface ProviderRecord {
  id: string;
  type: ProviderType;
  name: string;
  clientId: string;
  clientSecretEnc: string | null;
  apiKeyEnc: string | null;
  issuer: string | null;
  /** Space-separated; null: the type's default scopes. */
  scopes: string | null;
  settings: ProviderSettings;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
}

export type ProviderPatch = Partial<
  Pick<
    ProviderRecord,
    | 'name'
    | 'clientId'
    | 'clientSecretEnc'
    | 'apiKeyEnc'
    | 'issuer'
    | 'scopes'
    | 'settings'
    | 'enabled'
  >
>;

export interface UpstreamProviderRepo {
  list(): Promise<ProviderRecord[]>;
  find(id: string): Promise<ProviderRecord | undefined>;
  /** Throws `UniqueViolation` ('provider_id') when the id is taken. */
  create(provider: ProviderRecord): Promise<void>;
  /** The row after the change; undefined when there is no such provider. */
  update(
    id: string,
    patch: ProviderPatch,
    now: number,
  ): Promise<ProviderRecord | undefined>;
  remove(id: string): Promise<boolean>;
}

/** (provider, subject) → one user: a subject links to one user, a user to one subject per provider. */
export interface UpstreamLink {
  providerId: string;
  subject: string;
  userId: number;
  /** The upstream display name and avatar as last seen, for /account. */
  displayName: string;
  avatarUrl: string;
  linkedAt: number;
  lastUsedAt: number | null;
  /**
   * The roles this provider's map added to the user through this link and that they still
   * hold by it: the only roles the map may take away again (role-map-sync.ts). Empty when new.
   */
  grantedRoles?: readonly string[];
}

export interface UpstreamLinkRepo {
  find(providerId: string, subject: string): Promise<UpstreamLink | undefined>;
  listByUser(userId: number): Promise<UpstreamLink[]>;
  /**
   * Throws `UniqueViolation`: 'upstream_subject' when the subject is linked already,
   * 'upstream_user' when the user has a link to this provider.
   */
  create(link: UpstreamLink): Promise<void>;
  /**
   * A new account and its first link in one transaction: neither exists without the other.
   * Throws `UniqueViolation` as UserRepo.create and create above do.
   */
  createAccount(
    user: NewUser,
    link: Omit<UpstreamLink, 'userId'>,
    now: number,
  ): Promise<User>;
  /** A sign-in through the link: when, and the upstream name and avatar it showed. */
  touch(
    providerId: string,
    subject: string,
    seen: { displayName: string; avatarUrl: string },
    now: number,
  ): Promise<void>;
  /** Records which roles the provider's map gave the user through this link. */
  setGrantedRoles(
    userId: number,
    providerId: string,
    roles: readonly string[],
  ): Promise<void>;
  /** Conditional: true for the one caller that removed it. */
  remove(userId: number, providerId: string): Promise<boolean>;
  /** A deleted account's links: the subjects may sign up again as new people. */
  removeAllOf(userId: number): Promise<void>;
}

/**
 * The single-use rows of a browser flow. `state`: the value sent to the provider; the others
 * are tickets the pages hold: `signin` (a sign-in to finish, second factor included),
 * `link_existing` (a subject whose e-mail belongs to an account, waiting for proof of it),
 * `link_start` and `reauth_start` (a signed-in person's request, from /account, to link a
 * provider or to prove themselves with one).
 */
export type FlowKind =
  | 'state'
  | 'signin'
  | 'link_existing'
  | 'link_start'
  | 'reauth_start';

export interface UpstreamFlow {
  keyHash: string;
  kind: FlowKind;
  providerId: string;
  browserHash: string;
  /** The signed-in person the flow acts for (link, re-authentication), or the user a sign-in ticket is for. */
  userId: number | null;
  /** The session (reauth grant key) that asked for a link or a re-authentication. */
  sessionKey: string | null;
  next: string;
  /** JSON: the intent of a state; the upstream profile of a link_existing ticket. */
  payload: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export interface UpstreamFlowRepo {
  put(flow: Omit<UpstreamFlow, 'usedAt'>): Promise<void>;
  find(keyHash: string): Promise<UpstreamFlow | undefined>;
  /** Conditional: uses the row up only while unused and unexpired; true for the one caller that did. */
  consume(keyHash: string, now: number): Promise<boolean>;
  purgeExpired(now: number): Promise<number>;
}
