import {
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

interface Connection {
  /** better-sqlite3: whether a transaction is open on the connection. */
  readonly inTransaction: boolean;
}

/**
 * SQLite ends a transaction itself when a statement in it fails with SQLITE_FULL (disk full)
 * or SQLITE_IOERR; Kysely's ROLLBACK then fails with "no transaction is active", and that
 * error replaced the real one, so a full disk answered 500 instead of 503. This driver rolls
 * back only a transaction that is still open, and the statement's own error is what the
 * caller sees.
 */
class OpenTransactionRollbackDriver extends SqliteDriver {
  constructor(
    config: SqliteDialectConfig,
    private readonly database: Connection,
  ) {
    super(config);
  }

  override async rollbackTransaction(
    connection: DatabaseConnection,
  ): Promise<void> {
    if (this.database.inTransaction)
      await super.rollbackTransaction(connection);
  }
}

/** Kysely's SQLite dialect over one better-sqlite3 connection, with the rollback above. */
export class OneConnectionSqliteDialect extends SqliteDialect {
  constructor(
    private readonly config: SqliteDialectConfig & { database: Connection },
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new OpenTransactionRollbackDriver(this.config, this.config.database);
  }
}
