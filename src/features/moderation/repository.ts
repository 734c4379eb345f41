/** What webhooks and their deliveries need from storage, nothing about SQL. Times are unix milliseconds. */

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  /** Event types wanted; empty: every type. */
  events: string[];
  enabled: boolean;
  /** The signing secret (`whsec_…`), sealed with a key derived from JWT_SECRET. */
  secretEnc: string;
  /** Start of the current run of failures; null while deliveries succeed. */
  failingSince: number | null;
  /** When it was switched off for failing too long; null otherwise. */
  disabledAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A webhook event to an endpoint, or a logout token to a client's back-channel address. */
export type DeliveryKind = 'webhook' | 'backchannel';

/** One message to one address: a webhook event to an endpoint, or a logout token to a client. */
export interface Delivery {
  id: number;
  kind: DeliveryKind;
  endpointId: string | null;
  targetUrl: string;
  messageId: string;
  eventType: string;
  orderKey: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  lastStatusCode: number | null;
  lastResponse: string;
  lastAttemptAt: number | null;
  createdAt: number;
}

/** What one try ended with. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  statusCode: number | null;
  response: string;
}

export interface WebhookEndpointRepo {
  create(endpoint: WebhookEndpoint): Promise<void>;
  list(): Promise<WebhookEndpoint[]>;
  find(id: string): Promise<WebhookEndpoint | undefined>;
  /**
   * Changes an endpoint; switching it on also ends its run of failures and the switched-off
   * notice. The endpoint as it is now, or undefined when there is none.
   */
  update(
    id: string,
    patch: Partial<
      Pick<WebhookEndpoint, 'url' | 'description' | 'events' | 'enabled'>
    >,
    now: number,
  ): Promise<WebhookEndpoint | undefined>;
  /** Removes the endpoint and every delivery to it; false when there was none. */
  remove(id: string): Promise<boolean>;
  /**
   * Records a try's result: success clears the failing run; a failure starts one (unless one
   * runs) and switches the endpoint off when it began `disableAfterMs` ago. True when it did.
   */
  recordResult(
    id: string,
    ok: boolean,
    now: number,
    disableAfterMs: number,
  ): Promise<boolean>;
}

export interface OutboxRepo {
  /**
   * Leases up to `limit` due deliveries of `kind` until `now + leaseMs`, skipping any with an
   * earlier pending delivery of the same order key to the same address (order per user),
   * those leased already, and those of a switched-off endpoint. Fair to every address: the
   * oldest due delivery of each address comes before the second of any, and an address never
   * has more than `perTarget` leased at once across instances. On PostgreSQL the rows are
   * picked `FOR UPDATE SKIP LOCKED`, so two instances never take the same one.
   */
  claimDue(
    kind: DeliveryKind,
    now: number,
    leaseMs: number,
    limit: number,
    perTarget: number,
  ): Promise<Delivery[]>;
  settle(id: number, outcome: DeliveryOutcome, now: number): Promise<void>;
  /** The newest deliveries to an endpoint, newest first. */
  recent(endpointId: string, limit: number): Promise<Delivery[]>;
  /** The newest logout tokens sent to clients' back-channel addresses, newest first. */
  recentLogouts(limit: number): Promise<Delivery[]>;
  find(id: number): Promise<Delivery | undefined>;
  /** Makes a delivery pending again, due now, with a fresh retry window; false when unknown. */
  redeliver(id: number, now: number): Promise<boolean>;
  /** Queues one event for one endpoint (the console's test event). */
  enqueueFor(
    endpoint: Pick<WebhookEndpoint, 'id' | 'url'>,
    type: string,
    data: Record<string, unknown>,
    now: number,
  ): Promise<void>;
  /** Deletes settled deliveries older than `before`. */
  purgeSettled(before: number): Promise<number>;
}
