import type { Storage } from '../../src/app/storage.js';
import { oidcAppsStorageSuite } from './oidc-suite-apps.js';
import { oidcCodesStorageSuite } from './oidc-suite-codes.js';
import { oidcGrantsStorageSuite } from './oidc-suite-grants.js';
import { oidcKeysStorageSuite } from './oidc-suite-keys.js';
import { oidcRefreshStorageSuite } from './oidc-suite-refresh.js';

/** The OpenID Connect repositories (migration 002-oidc) against one backend. */
export function oidcStorageSuite(storage: () => Storage): void {
  oidcAppsStorageSuite(storage);
  oidcCodesStorageSuite(storage);
  oidcKeysStorageSuite(storage);
  oidcRefreshStorageSuite(storage);
  oidcGrantsStorageSuite(storage);
}
