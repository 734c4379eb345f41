/**
 * Every request and response shape of the public interface, declared once. The routes
 * validate and serialise with these schemas, the services type their views with them, and
 * the pages import the same types (type-only, so no server code reaches the bundle).
 */
export * from './common.js';
export * from './session.js';
export * from './accounts.js';
export * from './apps.js';
export * from './authorize.js';
export * from './device.js';
export * from './admin.js';
export * from './system.js';
export * from './oidc-pages.js';
export * from './oidc-tokens.js';
export * from './reauth.js';
export * from './second-factor.js';
export * from './account-settings.js';
export * from './admin-console.js';
