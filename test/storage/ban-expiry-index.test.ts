import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import { freshPostgresSchema, isPostgresUrl } from '../helpers/db.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const LIFT =
  'UPDATE users SET banned = 0 WHERE banned = 1 AND banned_until IS NOT NULL AND banned_until <= 1000';

describe(`migration 014: lifting expired bans reads an index (${isPostgresUrl(pgUrl) ? 'postgres' : 'sqlite'})`, () => {
  it('the housekeeping statement can find timed bans without reading every user', async () => {
    let url: string;
    let plan: () => Promise<string>;
    let done: () => Promise<void>;
    if (isPostgresUrl(pgUrl)) {
      const fresh = await freshPostgresSchema(pgUrl);
      const { default: pg } = await import('pg');
      const client = new pg.Client({
        connectionString: pgUrl,
        options: `-c search_path=${fresh.schema}`,
      });
      url = fresh.url;
      // With a handful of rows a sequential scan is cheaper; turned off, the plan shows the index is usable.
      plan = async () => {
        await client.connect();
        await client.query('SET enable_seqscan = off');
        return (await client.query(`EXPLAIN ${LIFT}`)).rows
          .map((r: Record<string, string>) => Object.values(r)[0])
          .join('\n');
      };
      done = async () => {
        await client.end();
        await fresh.dispose();
      };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'ac-ban-'));
      url = `sqlite:${join(dir, 'm.db')}`;
      plan = async () => {
        const { default: Sqlite } = await import('better-sqlite3');
        const db = new Sqlite(join(dir, 'm.db'), { readonly: true });
        try {
          return (
            db.prepare(`EXPLAIN QUERY PLAN ${LIFT}`).all() as {
              detail: string;
            }[]
          )
            .map((r) => r.detail)
            .join('\n');
        } finally {
          db.close();
        }
      };
      done = async () => rmSync(dir, { recursive: true, force: true });
    }
    const storage = await createSqlStorage(url);
    try {
      await storage.migrate();
      await storage.close();
      expect(await plan()).toContain('users_banned_until');
    } finally {
      await done();
    }
  });
});
