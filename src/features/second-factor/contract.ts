/** Second factors: authenticator app (TOTP), recovery codes and passkeys (WebAuthn). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';
import { ReauthFields } from '../reauth/contract.js';

export const PasskeyView = View({
  id: Type.String(),
  name: Type.String(),
  created_at: Type.Integer(),
  last_used_at: Type.Union([Type.Integer(), Type.Null()]),
});
export type PasskeyView = Static<typeof PasskeyView>;

/** What /account shows: whether the authenticator app is on, recovery codes left, passkeys. */
export const SecondFactorStatus = View({
  totp: Type.Boolean(),
  recovery_codes_left: Type.Integer(),
  passkeys: Type.Array(PasskeyView),
});
export type SecondFactorStatus = Static<typeof SecondFactorStatus>;
export const SecondFactorStatusReply = DataEnvelope(SecondFactorStatus);

/** A new, unconfirmed secret: as text, as an otpauth:// link and as a QR code (data: URL). */
export const TotpSetupData = View({
  secret: Type.String(),
  otpauth_url: Type.String(),
  qr: Type.String(),
});
export type TotpSetupData = Static<typeof TotpSetupData>;
export const TotpSetupReply = DataEnvelope(TotpSetupData);

/** `code`: a 6-digit authenticator code (or, where a recovery code is accepted, one of those). */
export const OtpCodeBody = Type.Object({ code: Str(64) });
/** `password` and `code` are the older names of `current_password` and `otp`, still accepted. */
export const TotpDisableBody = Type.Object({
  ...ReauthFields,
  password: Type.Optional(Str()),
  code: Type.Optional(Str(64)),
});
/** `code` is the older name of `otp`, still accepted. */
export const RecoveryCodesBody = Type.Object({
  ...ReauthFields,
  code: Type.Optional(Str(64)),
});

/** Shown once: only their hashes are kept. */
export const RecoveryCodesData = View({
  recovery_codes: Type.Array(Type.String()),
});
export type RecoveryCodesData = Static<typeof RecoveryCodesData>;
export const RecoveryCodesReply = DataEnvelope(RecoveryCodesData);

/** WebAuthn options as @simplewebauthn/server builds them, handed to the browser helper as is. */
export const WebAuthnOptionsReply = DataEnvelope(
  Type.Record(Type.String(), Type.Unknown()),
);
/** `response`: the browser helper's result (RegistrationResponseJSON / AuthenticationResponseJSON). */
export const PasskeyRegisterBody = Type.Object({
  name: Type.Optional(Str(64)),
  response: Type.Record(Type.String(), Type.Unknown()),
});
export const PasskeyLoginBody = Type.Object({
  response: Type.Record(Type.String(), Type.Unknown()),
});
export const PasskeyDeleteBody = Type.Object({
  id: Str(1024),
  ...ReauthFields,
});
export const PasskeyReply = DataEnvelope(PasskeyView);

export const AdminSecondFactorBody = Type.Object({ username: Str(256) });
export const AdminSecondFactorData = View({
  totp_removed: Type.Boolean(),
  passkeys_removed: Type.Integer(),
});
export type AdminSecondFactorData = Static<typeof AdminSecondFactorData>;
export const AdminSecondFactorReply = DataEnvelope(AdminSecondFactorData);
