import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { oidcStorageSuite } from './oidc-suite.js';
import { appsStorageSuite } from './suite-apps.js';
import { auditStorageSuite } from './suite-audit.js';
import { codesStorageSuite } from './suite-codes.js';
import { sessionsStorageSuite } from './suite-sessions.js';
import { usersStorageSuite } from './suite-users.js';

/** A fresh, migrated, empty storage and a way to throw it away. */
export type StorageFactory = () => Promise<{
  storage: Storage;
  dispose: () => Promise<void>;
}>;

/**
 * Every repository method of src/features/storage.ts against one backend. The topics share
 * one storage, so a purge count asserts only what no earlier topic left behind.
 */
export function storageSuite(name: string, factory: StorageFactory): void {
  describe(`storage: ${name}`, () => {
    let s: Storage;
    let dispose: () => Promise<void>;
    beforeAll(async () => ({ storage: s, dispose } = await factory()));
    afterAll(async () => {
      await s?.close();
      await dispose?.();
    });

    it('migrate is idempotent and ping answers', async () => {
      await s.migrate();
      await Promise.all([s.migrate(), s.migrate()]);
      expect(await s.ping()).toBe(true);
    });

    usersStorageSuite(() => s);
    appsStorageSuite(() => s);
    codesStorageSuite(() => s);
    sessionsStorageSuite(() => s);
    auditStorageSuite(() => s);
    // Last, so the purge counts of the seed tests above see only their own rows.
    oidcStorageSuite(() => s);
  });
}
