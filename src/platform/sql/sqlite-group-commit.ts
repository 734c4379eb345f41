import type { Database as BetterSqlite3Database, Statement } from 'better-sqlite3';
import {
  CompiledQuery, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';

/**
 * SQLite with group commit. A commit writes every page the transaction dirtied to the WAL,
 * one frame each; with one commit per write those frames were a large part of an exchange's
 * or a token grant's time, and the rows of concurrent requests share many of their pages.
 * Here the writes that requests make in one turn of the event loop share one transaction:
 * the first opens it (`BEGIN IMMEDIATE`), each runs at once, so its result (an atomic
 * `UPDATE … RETURNING` of a limit, a consumed code) is decided in order as before, and the
 * transaction commits when the turn's I/O callbacks are done (`setImmediate`). A write's
 * promise settles only after that commit, so no answer reports a write a crash could lose.
 *
 * Kysely transactions (`db.transaction()`) keep the connection to themselves: they first
 * commit the open batch, and other queries wait until they end, as with Kysely's own driver.
 */
export class GroupCommitSqliteDialect implements Dialect {
  private readonly driver: GroupCommitDriver;

  constructor(database: BetterSqlite3Database, prepare: (sql: string) => Statement) {
    this.driver = new GroupCommitDriver(database, prepare);
  }

  /** One Kysely instance per dialect: the driver owns the only connection to the file. */
  createDriver(): Driver {
    return this.driver;
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

interface Batch {
  committed: Promise<void>;
  settle: (err?: unknown) => void;
}

function openBatch(): Batch {
  let settle!: (err?: unknown) => void;
  const committed = new Promise<void>((resolve, reject) => {
    settle = (err) => (err === undefined ? resolve() : reject(err));
  });
  // Writers chain on it; the batch promise itself must not report an unhandled rejection.
  committed.catch(() => undefined);
  return { committed, settle };
}

function execute(stmt: Statement, parameters: readonly unknown[]): QueryResult<unknown> {
  if (stmt.reader) return { rows: stmt.all(parameters) };
  const { changes, lastInsertRowid } = stmt.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

class GroupCommitDriver implements Driver {
  /** The connection of the Kysely transaction (or stream) holding the database, if any. */
  private owner: Connection | undefined;
  private ownerEnded: Promise<void> = Promise.resolve();
  private endOwner: () => void = () => undefined;
  private batch: Batch | undefined;
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;

  constructor(
    private readonly db: BetterSqlite3Database,
    readonly prepare: (sql: string) => Statement,
  ) {
    this.begin = db.prepare('begin immediate');
    this.commit = db.prepare('commit');
    this.rollback = db.prepare('rollback');
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Connection(this);
  }

  /** Resolves once no other connection holds the database. */
  waitFor(conn: Connection): Promise<void> | undefined {
    return this.owner !== undefined && this.owner !== conn ? this.ownerEnded : undefined;
  }

  isOwner(conn: Connection): boolean {
    return this.owner === conn;
  }

  async hold(conn: Connection): Promise<void> {
    for (let wait = this.waitFor(conn); wait; wait = this.waitFor(conn)) await wait;
    this.owner = conn;
    this.ownerEnded = new Promise((resolve) => (this.endOwner = resolve));
    this.commitBatch();
  }

  letGo(conn: Connection): void {
    if (this.owner !== conn) return;
    this.owner = undefined;
    this.endOwner();
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await this.hold(conn as Connection);
    try {
      await conn.executeQuery(CompiledQuery.raw('begin'));
    } catch (err) {
      this.letGo(conn as Connection);
      throw err;
    }
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    this.letGo(conn as Connection);
  }

  async destroy(): Promise<void> {
    this.commitBatch();
    // The last connection to close folds the log into the database file and removes it.
    this.db.close();
  }

  /** Runs a write outside any Kysely transaction in this turn's batch; settles after its commit. */
  write(stmt: Statement, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    let batch = this.batch;
    let result: QueryResult<unknown>;
    try {
      if (batch === undefined) {
        this.begin.run();
        batch = this.batch = openBatch();
        setImmediate(() => this.commitBatch());
      }
      result = execute(stmt, parameters);
    } catch (err) {
      // Some errors (disk full, I/O) make SQLite roll the whole transaction back: then the
      // writes before this one in the batch are gone too, and their callers must hear so.
      if (batch !== undefined && !this.db.inTransaction) this.failBatch(batch, err);
      return Promise.reject(err);
    }
    return batch.committed.then(() => result);
  }

  private commitBatch(): void {
    const batch = this.batch;
    if (batch === undefined) return;
    this.batch = undefined;
    try {
      this.commit.run();
      batch.settle();
    } catch (err) {
      batch.settle(err);
      // Runs from setImmediate: a throw here would end the process.
      try {
        if (this.db.inTransaction) this.rollback.run();
      } catch {
        // The connection has failed; the next write reports it to its own caller.
      }
    }
  }

  private failBatch(batch: Batch, err: unknown): void {
    if (this.batch === batch) this.batch = undefined;
    batch.settle(err);
  }
}

class Connection implements DatabaseConnection {
  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const wait = this.driver.waitFor(this);
    if (wait) return wait.then(() => this.executeQuery<R>(query));
    const stmt = this.driver.prepare(query.sql);
    if (stmt.readonly || this.driver.isOwner(this)) {
      try {
        return Promise.resolve(execute(stmt, query.parameters) as QueryResult<R>);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return this.driver.write(stmt, query.parameters) as Promise<QueryResult<R>>;
  }

  /** A streamed read holds the database: better-sqlite3 runs nothing else while it iterates. */
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    await this.driver.hold(this);
    try {
      for (const row of this.driver.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
    } finally {
      this.driver.letGo(this);
    }
  }
}
