import { createSqlStorage } from '../app/sql-storage.js';
import { say } from './messages.js';

/** What the SQLite and the PostgreSQL halves of backup and restore share. */
export class BackupError extends Error {}

export const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** The users in the target database, or 0 when it has no tables yet. */
export async function usersIn(databaseUrl: string): Promise<number> {
  const storage = await createSqlStorage(databaseUrl, { pgPoolMax: 1 });
  try {
    return await storage.users.count();
  } catch (err) {
    const message = (err as Error).message;
    if (
      (err as { code?: string }).code === '42P01' ||
      /no such table/.test(message)
    )
      return 0;
    throw err;
  } finally {
    await storage.close();
  }
}

export async function refuseNonEmpty(databaseUrl: string): Promise<void> {
  const users = await usersIn(databaseUrl);
  if (users > 0) throw new BackupError(say('restoreNotEmpty', { users }));
}

export async function migrate(databaseUrl: string): Promise<void> {
  const storage = await createSqlStorage(databaseUrl, { pgPoolMax: 1 });
  try {
    await storage.migrate();
  } finally {
    await storage.close();
  }
}
