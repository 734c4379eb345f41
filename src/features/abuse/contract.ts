/** Abuse protection (docs/api.md §16): the CAPTCHA challenge and invite codes. */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';

/** An ALTCHA challenge, as the widget and altcha-lib's solver take it. */
export const CaptchaChallenge = View({
  algorithm: Type.Literal('SHA-256'),
  challenge: Type.String(),
  maxnumber: Type.Integer(),
  salt: Type.String(),
  signature: Type.String(),
});
export type CaptchaChallenge = Static<typeof CaptchaChallenge>;
export const CaptchaReply = DataEnvelope(CaptchaChallenge);

/** An invite code as administrators see it; the code itself only in the answer that made it. */
export const InviteView = View({
  id: Type.String(),
  uses: Type.Integer(),
  used: Type.Integer(),
  /** Milliseconds since 1970; null: never expires. */
  expires_at: Type.Union([Type.Integer(), Type.Null()]),
  created_by: Type.String(),
  created_at: Type.Integer(),
});
export type InviteView = Static<typeof InviteView>;
export const NewInviteView = View({
  ...InviteView.properties,
  code: Type.String(),
});
export type NewInviteView = Static<typeof NewInviteView>;
export const NewInviteReply = DataEnvelope(NewInviteView);
export const InviteListReply = DataEnvelope(
  View({ invites: Type.Array(InviteView) }),
);

/** `uses` 1–10000 (default 1); `expires_in` seconds (absent: never). */
export const InviteCreateBody = Type.Object({
  uses: Type.Optional(Type.Integer()),
  expires_in: Type.Optional(Type.Integer()),
});
export type InviteCreateBody = Static<typeof InviteCreateBody>;
export const InviteIdBody = Type.Object({ id: Str(64) });
