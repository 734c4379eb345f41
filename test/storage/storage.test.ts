import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import { freshPostgresSchema, isPostgresUrl } from '../helpers/db.js';
import { storageSuite } from './suite.js';

const pgUrl = process.env.TEST_DATABASE_URL;

if (!isPostgresUrl(pgUrl)) {
  storageSuite('sqlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ac-storage-'));
    const storage = await createSqlStorage(`sqlite:${join(dir, 'test.db')}`);
    await storage.migrate();
    return {
      storage,
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  });
} else {
  storageSuite('postgres', async () => {
    const { url, dispose } = await freshPostgresSchema(pgUrl);
    const storage = await createSqlStorage(url, { pgPoolMax: 8 });
    await storage.migrate();
    return { storage, dispose };
  });

  describe('storage: postgres specifics', () => {
    it('several instances migrating one fresh schema at once all succeed', async () => {
      const { url, schema, dispose } = await freshPostgresSchema(pgUrl);
      const storages = await Promise.all(
        Array.from({ length: 4 }, () =>
          createSqlStorage(url, { pgPoolMax: 2 }),
        ),
      );
      try {
        await Promise.all(storages.map((s) => s.migrate()));
        const u = await storages[0]!.users.create(
          {
            username: 'x_1',
            email: 'x@example.com',
            displayName: 'x',
            passwordHash: 'h',
            emailVerified: false,
            roles: [],
          },
          1,
        );
        expect((await storages[3]!.users.findById(u.id))?.username).toBe('x_1');
        expect(schema).toMatch(/^t_\d+_/);
      } finally {
        await Promise.all(storages.map((s) => s.close()));
        await dispose();
      }
    });

    it('schemas are independent and the schema parameter is validated', async () => {
      const a = await freshPostgresSchema(pgUrl);
      const b = await freshPostgresSchema(pgUrl);
      const sa = await createSqlStorage(a.url, { pgPoolMax: 1 });
      const sb = await createSqlStorage(b.url, { pgPoolMax: 1 });
      try {
        await sa.migrate();
        await sb.migrate();
        await sa.users.create(
          {
            username: 'only_a',
            email: 'a@example.com',
            displayName: 'a',
            passwordHash: 'h',
            emailVerified: false,
            roles: [],
          },
          1,
        );
        expect(await sa.users.count()).toBe(1);
        expect(await sb.users.count()).toBe(0);
      } finally {
        await sa.close();
        await sb.close();
        await a.dispose();
        await b.dispose();
      }
      await expect(
        createSqlStorage(`${pgUrl}?schema=Bad;drop`),
      ).rejects.toThrow(/invalid PostgreSQL schema/);
    });

    it('migrating is not disturbed by other schemas of the database being dropped meanwhile', async () => {
      // Other tenants (or other test runs) create and drop their schemas while this one starts.
      let churning = true;
      const churn = Promise.all(
        Array.from({ length: 4 }, async () => {
          while (churning) {
            const other = await freshPostgresSchema(pgUrl);
            const s = await createSqlStorage(other.url, { pgPoolMax: 1 });
            await s.migrate();
            await s.close();
            await other.dispose();
          }
        }),
      );
      try {
        for (let i = 0; i < 12; i++) {
          const mine = await freshPostgresSchema(pgUrl);
          const s = await createSqlStorage(mine.url, { pgPoolMax: 1 });
          try {
            await s.migrate();
            expect(await s.users.count()).toBe(0);
          } finally {
            await s.close();
            await mine.dispose();
          }
        }
      } finally {
        churning = false;
        await churn;
      }
    }, 60_000);
  });
}
