import type { Compilable, Kysely, QueryResult } from 'kysely';

/**
 * A query whose SQL Kysely builds and compiles once; each call only binds new parameters,
 * in the order the builder placed them. On the hot single-row reads (app by client_id,
 * code by hash, user by id) and the consuming UPDATE of a code, building the query tree per
 * call cost about as much as running it.
 */
export function compileOnce<R>(db: Kysely<any>, query: Compilable<R>): (...parameters: unknown[]) => Promise<QueryResult<R>> {
  const compiled = query.compile();
  return async (...parameters) => {
    if (parameters.length !== compiled.parameters.length) throw new Error('compiled query: parameter count mismatch');
    return db.executeQuery<R>({ ...compiled, parameters });
  };
}
