/**
 * How a sign-in was made, as its session records it (`sessions.method`) for the `amr` and
 * `acr` of the ID tokens issued on it (docs/oidc.md): '' for a password or an e-mail code,
 * `upstream:<provider>` through another account, `passkey`; a checked second factor
 * (authenticator or recovery code) appends SECOND_FACTOR_MARK.
 */
export const PASSKEY_METHOD = 'passkey';
export const SECOND_FACTOR_MARK = '+otp';

export function signInMethod(
  base: string,
  secondFactorChecked: boolean,
): string {
  return secondFactorChecked ? base + SECOND_FACTOR_MARK : base;
}

/** RFC 8176 `amr` values of a recorded method, separated by spaces; null when there is nothing to say. */
export function amrOfMethod(method: string): string | null {
  const secondFactor = method.endsWith(SECOND_FACTOR_MARK);
  const base = secondFactor
    ? method.slice(0, -SECOND_FACTOR_MARK.length)
    : method;
  const amr: string[] = [];
  if (base.startsWith('upstream:')) amr.push('fed');
  if (secondFactor) amr.push('otp');
  // A passkey is a device the person holds, unlocked by them (user verification is required).
  if (secondFactor || base === PASSKEY_METHOD) amr.push('mfa');
  return amr.length === 0 ? null : amr.join(' ');
}
