import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { runCli } from '../helpers/server.js';

/** The SQLite file holds password hashes and the audit trail: never readable by other users. */
const root = mkdtempSync(join(tmpdir(), 'ac-modes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;

describe('files the service creates are private', () => {
  it('a fresh data folder is 0700, the database (and its WAL) 0600', async () => {
    const dir = join(root, 'data-a');
    const t = await createTestApp({
      DATABASE_URL: `sqlite:${join(dir, 'account-center.db')}`,
    });
    try {
      await t.register();
      expect(mode(dir)).toBe(0o700);
      expect(mode(join(dir, 'account-center.db'))).toBe(0o600);
      expect(mode(join(dir, 'account-center.db-wal'))).toBe(0o600);
    } finally {
      await t.close();
    }
  });

  it('the CLI, without JWT_SECRET, creates the folder 0700 and the secret and database 0600', async () => {
    const dir = join(root, 'data-b');
    await runCli(
      { DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`, JWT_SECRET: '' },
      ['migrate'],
    );
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'db.sqlite'))).toBe(0o600);
    expect(mode(join(dir, 'jwt-secret'))).toBe(0o600);
  });
});
