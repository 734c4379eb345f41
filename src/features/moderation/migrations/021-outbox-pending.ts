import { sql, type Kysely } from 'kysely';

/**
 * Choosing the next deliveries looks, per address, at the earlier pending deliveries and at
 * those leased: with only the full index it read every delivery an address ever had, so the
 * choice grew slower with each address's history. This index holds the pending ones alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('outbox_pending')
    .on('outbox')
    .columns(['target_url', 'order_key', 'id'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('outbox_pending').ifExists().execute();
}
