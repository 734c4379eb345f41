/** The audit trail as role admin reads it (docs/api.md §8). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, PageParam, View } from '../../platform/http/contract.js';

export const AuditQuery = Type.Object({
  action: Type.Optional(Type.String({ maxLength: 256 })),
  actor: Type.Optional(Type.String({ maxLength: 256 })),
  target: Type.Optional(Type.String({ maxLength: 2048 })),
  page: PageParam,
  /** Time range, unix seconds, both ends included; empty means open. */
  from: Type.Optional(Type.String({ pattern: '^[0-9]{0,12}$' })),
  to: Type.Optional(Type.String({ pattern: '^[0-9]{0,12}$' })),
});
const nullableString = Type.Union([Type.String(), Type.Null()]);
/** One audit row; times in unix seconds like every other time of the API. */
export const AuditEntryView = View({
  id: Type.Integer(),
  at: Type.Integer(),
  actor: nullableString,
  ip: nullableString,
  action: Type.String(),
  target: nullableString,
  detail: Type.Record(Type.String(), Type.Unknown()),
});
export type AuditEntryView = Static<typeof AuditEntryView>;
export const AuditPage = View({
  entries: Type.Array(AuditEntryView),
  total: Type.Integer(),
});
export type AuditPage = Static<typeof AuditPage>;
export const AuditPageReply = DataEnvelope(AuditPage);
