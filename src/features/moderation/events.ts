/**
 * The events announced to webhook endpoints (docs/api.md §15.2) and how each is built from a
 * user or an app. `data` carries `uid`, `username` and what changed, never a secret.
 */
import type { OutboxEvent } from './outbox.js';

export const EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.banned',
  'user.unbanned',
  'user.roles_changed',
  'user.password_changed',
  'user.sessions_revoked',
  'app.disabled',
  'app.enabled',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent only on request from the console, to try an endpoint. */
export const TEST_EVENT = 'webhook.test';

export const isEventType = (v: string): v is EventType =>
  (EVENT_TYPES as readonly string[]).includes(v);

interface Person {
  id: number;
  username: string;
}

/** An event about a person, ordered with the other events about them. */
export function userEvent(
  type: EventType,
  user: Person,
  changes: Record<string, unknown> = {},
): OutboxEvent {
  return {
    type,
    orderKey: `user:${user.id}`,
    data: { uid: user.id, username: user.username, ...changes },
  };
}

/** An event about an application, ordered with the others about it. */
export function appEvent(
  type: 'app.disabled' | 'app.enabled',
  clientId: string,
  changes: Record<string, unknown> = {},
): OutboxEvent {
  return {
    type,
    orderKey: `app:${clientId}`,
    data: { client_id: clientId, ...changes },
  };
}

/** An ISO-8601 time, or null, as events and views show a ban's end. */
export const isoOrNull = (ms: number | null) =>
  ms === null ? null : new Date(ms).toISOString();

/** Webhook events that end every session of a person: each also logs out the clients holding their tokens. */
export const SESSION_ENDING_EVENTS: readonly string[] = [
  'user.sessions_revoked',
  'user.banned',
  'user.deleted',
];
