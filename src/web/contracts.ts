/**
 * Every request and response shape of the public interface, declared once. The routes
 * validate and serialise with these schemas, the services type their views with them, and
 * the pages import the same types (type-only, so no server code reaches the bundle).
 */
export * from '../platform/http/contract.js';
export * from '../features/sessions/contract.js';
export * from '../features/sign-in/contract.js';
export * from '../features/apps/contract.js';
export * from '../features/authorization/contract.js';
export * from '../features/device/contract.js';
export * from '../features/admin/contract.js';
export * from '../features/audit/contract.js';
export * from '../features/system/contract.js';
export * from '../features/oidc/pages-contract.js';
export * from '../features/oidc/contract.js';
export * from '../features/reauth/contract.js';
export * from '../features/second-factor/contract.js';
export * from '../features/account-settings/contract.js';
export * from '../features/admin/console-contract.js';
export * from '../features/upstream/contract.js';
export * from '../features/sign-in-history/contract.js';
export type {
  ProfileDetail,
  ProfileSummary,
} from '../features/minecraft/contract.js';
export * from '../features/abuse/contract.js';
export * from '../features/moderation/contract.js';
