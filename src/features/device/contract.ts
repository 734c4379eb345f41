/** Device login and the game token (docs/api.md §7, §3.6). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';

export const DeviceStartBody = Type.Object({ client_id: Type.Optional(Str()) });
export const DeviceStart = View({
  device_code: Type.String(),
  user_code: Type.String(),
  verification_uri: Type.String(),
  verification_uri_complete: Type.String(),
  expires_in: Type.Integer(),
  interval: Type.Integer(),
});
export type DeviceStart = Static<typeof DeviceStart>;
export const DeviceStartReply = DataEnvelope(DeviceStart);

export const DeviceApproveBody = Type.Object({
  user_code: Str(),
  deny: Type.Optional(Type.Boolean()),
});
export const DeviceApproved = View({
  client_id: Type.String(),
  display_name: Type.String(),
});
export type DeviceApproved = Static<typeof DeviceApproved>;
export const DeviceApproveReply = DataEnvelope(DeviceApproved);

export const DevicePollBody = Type.Object({ device_code: Str() });
/** Poll failures carry the RFC 8628 `error` code next to `msg` (docs/api.md §7). */
export const PollFailure = Type.Object({
  ok: Type.Boolean(),
  msg: Type.String(),
  error: Type.Optional(Type.String()),
});

export const DeviceInspectBody = Type.Object({ user_code: Str() });
/** Who asks behind a live user code, shown before approval (RFC 8628 §5.4). */
export const DeviceRequest = View({
  client_id: Type.String(),
  display_name: Type.String(),
  /** The center itself asks: the device would get full access to the account. */
  first_party: Type.Boolean(),
  /** When the device started the login (unix seconds). */
  created_at: Type.Integer(),
  /** Present, false, when the app admits only roles the person does not hold: approving is refused. */
  allowed: Type.Optional(Type.Literal(false)),
});
export type DeviceRequest = Static<typeof DeviceRequest>;
export const DeviceInspectReply = DataEnvelope(DeviceRequest);
