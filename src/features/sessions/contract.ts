/** Token envelopes and the session endpoints: me, refresh, logout (docs/api.md §3.2–3.4, §1, §3). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, View } from '../../platform/http/contract.js';

/** The `user` object of token envelopes: exactly these five keys (docs/api.md §1). */
export const PublicUser = View({
  uid: Type.Integer(),
  username: Type.String(),
  display_name: Type.String(),
  email: Type.String(),
  roles: Type.Array(Type.String()),
});
export type PublicUser = Static<typeof PublicUser>;

/** What register, login, refresh, device poll and game_token answer. */
export const TokenEnvelope = View({
  ok: Type.Literal(true),
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer(),
  user: PublicUser,
});
export type TokenEnvelope = Static<typeof TokenEnvelope>;

/** `data` of `me`: the user as stored now, plus the token's app and expiry. */
export const MeData = View({
  uid: Type.Integer(),
  username: Type.String(),
  display_name: Type.String(),
  email: Type.String(),
  email_verified: Type.Boolean(),
  roles: Type.Array(Type.String()),
  app: Type.String(),
  exp: Type.Integer(),
});
export type MeData = Static<typeof MeData>;
export const MeReply = DataEnvelope(MeData);

/**
 * logout reads `all` only when it is exactly `true`; anything else (another type, another
 * body shape) still answers 200 (docs/api.md §3), so the body is not validated.
 */
export const LogoutBody = Type.Unknown({
  description: '{ "all": true } revokes every token of the user',
});
export const LogoutReply = DataEnvelope(View({}));
