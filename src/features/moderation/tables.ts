/** The tables of webhook endpoints and the outbox of deliveries, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

export interface WebhookEndpointsTable {
  id: string;
  url: string;
  description: string;
  events: string;
  enabled: number;
  secret_enc: string;
  failing_since: number | null;
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  endpoint_id: string | null;
  target_url: string;
  message_id: string;
  event_type: string;
  order_key: string;
  payload: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_until: Generated<number>;
  last_status_code: number | null;
  last_response: Generated<string>;
  last_attempt_at: number | null;
  created_at: number;
}

export interface ModerationTables {
  webhook_endpoints: WebhookEndpointsTable;
  outbox: OutboxTable;
}
