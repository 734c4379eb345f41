import type { Kysely } from 'kysely';

/** The key rule as it stood when this migration was written; a migration never follows later code. */
const asciiLower = (v: string): string =>
  v.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/**
 * Recomputes the comparison keys with ASCII-only case folding. They were lower-cased with
 * Unicode rules, which map U+212A KELVIN SIGN to `k`: `\u212aate@…` was stored under the key
 * of `kate@…`. ASCII folding is finer than Unicode folding (two addresses with one Unicode key
 * may differ, never the reverse), so the new keys stay unique.
 */
/** The tables this migration touches, as they stood when it was written. */
interface SchemaThen {
  users: {
    id: number;
    username: string;
    email: string;
    username_lower: string;
    email_lower: string;
  };
  email_codes: { used_at: number | null };
}

export async function up(database: Kysely<unknown>): Promise<void> {
  // A migration knows the tables as they stood then, not as the code's types say today.
  const db = database as Kysely<SchemaThen>;
  const users = await db
    .selectFrom('users')
    .select(['id', 'username', 'email', 'username_lower', 'email_lower'])
    .execute();
  for (const u of users) {
    const usernameKey = asciiLower(String(u.username));
    const emailKey = asciiLower(String(u.email));
    if (usernameKey === u.username_lower && emailKey === u.email_lower)
      continue;
    await db
      .updateTable('users')
      .set({ username_lower: usernameKey, email_lower: emailKey })
      .where('id', '=', u.id)
      .execute();
  }
  // Codes were filed under the Unicode key of the text typed: one asked for `\u212aate@…` was
  // mailed there but filed under `kate@…`. Unused codes live 10 minutes; all are dropped.
  await db.deleteFrom('email_codes').where('used_at', 'is', null).execute();
}

export async function down(): Promise<void> {
  // Nothing to undo: the ASCII keys are valid under the old rules' code as well.
}
