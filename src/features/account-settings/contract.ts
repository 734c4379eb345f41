/** The signed-in user's own account: profile, password, e-mail, sessions, deletion. */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';
import { ReauthFields } from '../reauth/contract.js';
import { PublicUser } from '../sessions/contract.js';

export const ProfileBody = Type.Object({ display_name: Str() });
export const ProfileReply = DataEnvelope(PublicUser);

export const ChangePasswordBody = Type.Object({
  ...ReauthFields,
  new_password: Str(),
  end_other_sessions: Type.Optional(
    Type.Boolean({ description: 'default true: every other sign-in ends' }),
  ),
});

export const ChangeEmailCodeBody = Type.Object({
  email: Str(),
  ...ReauthFields,
});
export const ChangeEmailBody = Type.Object({ email: Str(), code: Str() });
export const ChangeEmailData = View({
  email: Type.String(),
  email_verified: Type.Literal(true),
});
export const ChangeEmailReply = DataEnvelope(ChangeEmailData);

/**
 * One sign-in; times in unix seconds. `kind` tells the account center's own sessions (its
 * tokens, game and app tokens) from OAuth/OpenID Connect refresh-token families, whose id is
 * `oauth:<family>` and which record no address or user agent (empty strings).
 */
export const SessionView = View({
  id: Type.String(),
  kind: Type.Union([Type.Literal('token'), Type.Literal('oauth')], {
    description:
      '"token": a sign-in of the account center\'s own tokens; "oauth": an OAuth refresh-token family',
  }),
  app: Type.String(),
  app_name: Type.String(),
  created_at: Type.Integer(),
  last_used_at: Type.Integer(),
  ip: Type.String(),
  user_agent: Type.String(),
  current: Type.Boolean(),
});
export type SessionView = Static<typeof SessionView>;
export const SessionList = View({ sessions: Type.Array(SessionView) });
export type SessionList = Static<typeof SessionList>;
export const SessionListReply = DataEnvelope(SessionList);

export const EndSessionBody = Type.Object({ id: Str(64) });
export const EndSessionReply = DataEnvelope(View({}));
export const EndOtherSessionsReply = DataEnvelope(
  View({ ended: Type.Integer() }),
);

/** `password` is the older name of `current_password`, still accepted. */
export const DeleteAccountBody = Type.Object({
  ...ReauthFields,
  password: Type.Optional(Str()),
});
export const DeleteAccountReply = DataEnvelope(View({}));
