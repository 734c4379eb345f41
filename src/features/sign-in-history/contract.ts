/** The sign-in history and the new-browser notice setting (docs/api.md §17). */
import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, Str, View } from '../../platform/http/contract.js';

/** One sign-in: `at` in unix seconds, `method` as the history names it. */
export const SignInView = View({
  at: Type.Integer(),
  ip: Type.String(),
  user_agent: Type.String(),
  method: Type.String(),
});
export type SignInView = Static<typeof SignInView>;
export const SignInListReply = DataEnvelope(
  View({ sign_ins: Type.Array(SignInView) }),
);
export type SignInList = Static<typeof SignInListReply>['data'];

export const AdminSignInsQuery = Type.Object({ username: Str(256) });

/** Whether a sign-in from a browser or address new to the account is e-mailed to its owner. */
export const SignInNoticeView = View({ enabled: Type.Boolean() });
export type SignInNoticeView = Static<typeof SignInNoticeView>;
export const SignInNoticeReply = DataEnvelope(SignInNoticeView);
export const SignInNoticeBody = Type.Object({ enabled: Type.Boolean() });
