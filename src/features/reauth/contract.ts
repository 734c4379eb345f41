/**
 * Re-authentication (docs/api.md §10): the request that starts a change to how an account is
 * signed in to carries the current password, and a code when the authenticator is on.
 * Optional in the schema, so that a request without them gets 401 `需要重新验证身份`
 * rather than a 400 about a field.
 */
import { Type } from '@sinclair/typebox';
import { Str } from '../../platform/http/contract.js';

export const ReauthFields = {
  current_password: Type.Optional(Str()),
  otp: Type.Optional(Str(64)),
  email_code: Type.Optional(Str(16)),
};

/** A body of nothing but the proof (the first step of a passkey or authenticator set-up, a passkey deletion). */
export const ReauthBody = Type.Object(ReauthFields);
