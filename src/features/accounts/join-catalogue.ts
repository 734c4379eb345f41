import type { Kysely } from 'kysely';
import type { AccountsTables } from './tables.js';

/**
 * Adds to the catalogue every name of `roles` it does not list yet, with the name as its
 * display names; run by each write of a user's roles, in the same transaction when there is one.
 */
export async function joinCatalogue(
  db: Kysely<AccountsTables>,
  roles: readonly string[],
  now: number,
): Promise<void> {
  const names = [...new Set(roles)];
  if (names.length === 0) return;
  await db
    .insertInto('roles')
    .values(
      names.map((name) => ({
        name,
        display_name: name,
        display_name_en: name,
        description: '',
        builtin: 0,
        created_at: now,
        updated_at: now,
      })),
    )
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}
