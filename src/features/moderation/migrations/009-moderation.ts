import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Moderation that reaches every service (docs/api.md §15): the webhook endpoints, and the
 * outbox of deliveries, written in the same transaction as the change it announces, so a crash
 * loses none and a rolled-back change sends none. The shares of accounts (a ban's reason and
 * end) and apps (admin scopes, back-channel address) run with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(sql.lit('')))
    // JSON list of event types; an empty list means every type.
    .addColumn('events', 'text', (c) => c.notNull().defaultTo(sql.lit('[]')))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // AES-GCM under a key derived from JWT_SECRET: signing needs the secret itself.
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    // Start of the current run of failed deliveries; null while the endpoint answers.
    .addColumn('failing_since', 'bigint')
    // Set when the endpoint was switched off for failing: the dashboard names it.
    .addColumn('disabled_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('id', sql.raw(postgres ? 'bigserial' : 'integer'), (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // 'webhook' (to an endpoint) or 'backchannel' (a logout token to a client's URL).
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text')
    .addColumn('target_url', 'text', (c) => c.notNull())
    // The `webhook-id` header: the same on every try, so receivers can drop duplicates.
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    // Deliveries with the same key to the same target go out in id order (per user).
    .addColumn('order_key', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // 'pending', 'delivered' or 'failed'.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    // The instance sending it holds it until then; a crashed sender's lease simply runs out.
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_response', 'text', (c) =>
      c.notNull().defaultTo(sql.lit('')),
    )
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createIndex('outbox_due')
    .on('outbox')
    .columns(['status', 'next_attempt_at'])
    .execute();

  await db.schema
    .createIndex('outbox_order')
    .on('outbox')
    .columns(['target_url', 'order_key', 'id'])
    .execute();

  await db.schema
    .createIndex('outbox_endpoint')
    .on('outbox')
    .columns(['endpoint_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['outbox', 'webhook_endpoints'])
    await db.schema.dropTable(t).ifExists().execute();
}
