/** Registration and sign-in (docs/api.md §2). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';

/** `captcha`: the solved challenge when CAPTCHA=altcha; `invite_code` when REGISTRATION=invite (docs/api.md §16). */
const Captcha = Type.Optional(Str());

export const RegisterBody = Type.Object({
  username: Str(),
  password: Str(),
  email: Str(),
  display_name: Type.Optional(Str()),
  email_code: Type.Optional(Str()),
  captcha: Captcha,
  invite_code: Type.Optional(Str()),
});
export type RegisterBody = Static<typeof RegisterBody>;

/** `otp`: for an account with a second factor, a 6-digit authenticator code or a recovery code. */
const Otp = Type.Optional(Str(64));

export const LoginBody = Type.Object({
  username: Str(),
  password: Str(),
  otp: Otp,
  captcha: Captcha,
});
export type LoginBody = Static<typeof LoginBody>;

export const SendCodeBody = Type.Object({
  email: Str(),
  purpose: Str(),
  captcha: Captcha,
});
export const SendCodeData = View({
  expires_in: Type.Integer(),
  resend_after: Type.Integer(),
});
export type SendCodeData = Static<typeof SendCodeData>;
export const SendCodeReply = DataEnvelope(SendCodeData);

export const LoginByCodeBody = Type.Object({
  email: Str(),
  code: Str(),
  otp: Otp,
});

export const VerifyEmailBody = Type.Object({ code: Str() });
export const VerifyEmailData = View({ email_verified: Type.Literal(true) });
export type VerifyEmailData = Static<typeof VerifyEmailData>;
export const VerifyEmailReply = DataEnvelope(VerifyEmailData);

export const ResetPasswordBody = Type.Object({
  email: Str(),
  code: Str(),
  new_password: Str(),
});
export const ResetPasswordReply = DataEnvelope(View({}));
