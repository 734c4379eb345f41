import type { OutboxEvent } from '../moderation/index.js';
import type { AppStatus } from './app-state.js';
import type { ClientTypeName } from './app-rules.js';

/** Repository interfaces of applications: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */

export type ClientType = ClientTypeName;
export type { AppStatus };

export interface App {
  clientId: string;
  ownerId: number;
  displayName: string;
  homepage: string;
  scopes: string[];
  redirectUris: string[];
  corsOrigins: string[];
  clientType: ClientType;
  /** SHA-256 (hex) of the secret; null for public clients. */
  secretHash: string | null;
  /** Stored as text: anything other than 'active' is treated as disabled. */
  status: string;
  /** RFC 7591 client fields (docs/api.md §12.2). */
  grantTypes: string[];
  tokenEndpointAuthMethod: string;
  postLogoutRedirectUris: string[];
  /** OpenID Connect Back-Channel Logout 1.0: where logout tokens go ('' for none), and whether the client needs `sid` in them. */
  backchannelLogoutUri: string;
  backchannelLogoutSessionRequired: boolean;
  /** Why an administrator disabled (or re-enabled) it, shown to the owner; '' when never set. */
  statusReason: string;
  statusChangedAt: number | null;
  /** Admin API scopes an administrator granted it (admin-scopes.ts); empty for nearly every app. */
  adminScopes: string[];
  /** Roles any one of which admits a person (docs/api.md, roles); empty: everyone. */
  requiredRoles: string[];
  createdAt: number;
  updatedAt: number;
}

/** The RFC 7591 fields are optional on create: grants default to code + refresh, the method to the client type's. */
type OptionalClientFields =
  | 'grantTypes'
  | 'tokenEndpointAuthMethod'
  | 'postLogoutRedirectUris'
  | 'backchannelLogoutUri'
  | 'backchannelLogoutSessionRequired';
export type NewApp = Omit<
  App,
  | 'createdAt'
  | 'updatedAt'
  | 'statusReason'
  | 'statusChangedAt'
  | 'adminScopes'
  | 'requiredRoles'
  | OptionalClientFields
> &
  Partial<Pick<App, OptionalClientFields>>;

/**
 * A cap on the apps of one owner that have a back-channel logout address, counted with the
 * write it allows: the owner, the most allowed, and the app being changed (not counted).
 */
export interface BackchannelCap {
  ownerId: number;
  max: number;
}

/** Thrown by create and update when the write would take the owner past their BackchannelCap. */
export class BackchannelCapReached extends Error {}

export type AppPatch = Partial<
  Pick<
    App,
    | 'displayName'
    | 'homepage'
    | 'scopes'
    | 'redirectUris'
    | 'corsOrigins'
    | 'secretHash'
    | 'status'
    | 'statusReason'
    | 'statusChangedAt'
    | 'adminScopes'
    | 'requiredRoles'
    | OptionalClientFields
  >
>;

export interface AppRepo {
  /** Throws `UniqueViolation('client_id')` when taken, BackchannelCapReached past `cap`. */
  create(app: NewApp, now: number, cap?: BackchannelCap): Promise<App>;
  findById(clientId: string): Promise<App | undefined>;
  listByOwner(ownerId: number): Promise<App[]>;
  listActive(): Promise<App[]>;
  /** Throws BackchannelCapReached when `cap` is given and the owner's other apps with an address fill it. */
  update(
    clientId: string,
    patch: AppPatch,
    now: number,
    events?: readonly OutboxEvent[],
    cap?: BackchannelCap,
  ): Promise<App | undefined>;
  changedSince(since: number): Promise<string[]>;
  /** The apps that name `role` among their required roles. */
  requiringRole(role: string): Promise<App[]>;
  /** Every app whose name, client_id or owner's username contains `query` (ASCII case ignored), newest first. */
  search(
    query: string,
    offset: number,
    limit: number,
  ): Promise<{ apps: App[]; total: number }>;
}
