import type { Kysely, Transaction } from 'kysely';

/**
 * The same database seen through some of its tables: what a repository is given, so it can
 * name no table it does not own. `Kysely<A & B>` is not assignable to `Kysely<A>` only because
 * Kysely's type parameter also appears where it is consumed (method parameters); every query
 * written against `Some` is valid on a database holding `All`, which has all of `Some`'s tables
 * with the same columns (`All extends Some` checks it), so the view is sound. A transaction
 * stays one: the view is the same object.
 */
export function narrow<Some extends object, All extends Some>(
  db: Kysely<All> | Transaction<All>,
): Kysely<Some> {
  return db as unknown as Kysely<Some>;
}
