import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Runs a compiled query on a dialect's own connection, as Kysely's executor would. */
export type DirectRunner = <R>(query: CompiledQuery) => Promise<QueryResult<R>>;

const directRunners = new WeakMap<Kysely<any>, DirectRunner>();

/**
 * Lets compiled queries on `db` skip Kysely's executor (connection provider, plugin and
 * logging layers: several promises per query) and run on the dialect itself. Only for a
 * dialect without plugins or logging, whose connections hold no state (sqlite-group-commit.ts);
 * must be registered before any repository compiles its queries.
 */
export function runCompiledDirectly(db: Kysely<any>, runner: DirectRunner): void {
  directRunners.set(db, runner);
}

/**
 * A query whose SQL Kysely builds and compiles once; each call only binds new parameters,
 * in the order the builder placed them. On the hot single-row reads (app by client_id,
 * code by hash, user by id) and the consuming UPDATE of a code, building the query tree per
 * call cost about as much as running it.
 */
export function compileOnce<R>(db: Kysely<any>, query: Compilable<R>): (...parameters: unknown[]) => Promise<QueryResult<R>> {
  const compiled = query.compile();
  const run: DirectRunner = directRunners.get(db) ?? (<T>(q: CompiledQuery) => db.executeQuery<T>(q));
  return async (...parameters) => {
    if (parameters.length !== compiled.parameters.length) throw new Error('compiled query: parameter count mismatch');
    return run<R>({ ...compiled, parameters });
  };
}
