import type { ReauthProof } from './reauth-service.js';

/**
 * The proof a body carries: `current_password` and `otp`, or the older names an endpoint
 * had (`password`, `code`), so that existing clients keep working.
 */
export function proofOf(
  body:
    | { current_password?: string; otp?: string; email_code?: string }
    | undefined,
  older: { password?: string | undefined; otp?: string | undefined } = {},
): ReauthProof {
  return {
    currentPassword: body?.current_password ?? older.password,
    otp: body?.otp ?? older.otp,
    emailCode: body?.email_code,
  };
}
