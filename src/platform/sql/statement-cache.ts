import type { Database as BetterSqlite3Database, Statement } from 'better-sqlite3';

const MAX_STATEMENTS = 500;

/**
 * Kysely prepares every query anew; compiling the SQL is most of what a primary-key
 * read costs on SQLite. Kysely's queries are parameterised, so their texts are few and
 * each is prepared once here. A statement still being iterated (a streamed query) is busy,
 * and then a fresh one is prepared for the caller.
 */
export function cachedPrepare(db: BetterSqlite3Database): (sql: string) => Statement {
  const statements = new Map<string, Statement>();
  return (sql) => {
    let stmt = statements.get(sql);
    if (stmt === undefined) {
      stmt = db.prepare(sql);
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value as string);
      statements.set(sql, stmt);
    } else if (stmt.busy) {
      return db.prepare(sql);
    }
    return stmt;
  };
}
