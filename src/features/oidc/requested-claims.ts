/**
 * The `claims` request parameter (OIDC Core §5.5) and the authentication context (`acr`,
 * Core §2 and §5.5.1.1) it may demand, as pure functions.
 */

/** The scope whose consent releases each standard claim the center knows (Core §5.4). */
const SCOPE_OF_CLAIM: ReadonlyMap<string, string> = new Map([
  ...[
    'name',
    'preferred_username',
    'updated_at',
    'picture',
    'locale',
    'zoneinfo',
    'given_name',
    'family_name',
    'middle_name',
    'nickname',
    'profile',
    'website',
    'gender',
    'birthdate',
  ].map((claim) => [claim, 'profile'] as const),
  ['email', 'email'],
  ['email_verified', 'email'],
  ['roles', 'roles'],
]);

/** `acr` values (docs/oidc.md): one factor (password, e-mail code, another account), or a second factor too. */
export const ACR_ONE_FACTOR = '1';
export const ACR_SECOND_FACTOR = '2';
export const ACR_VALUES = [ACR_ONE_FACTOR, ACR_SECOND_FACTOR] as const;

/** RFC 8176 `amr` values that mean more than one factor was checked. */
const MULTI_FACTOR_AMR = 'mfa';

/** The `acr` of a sign-in, from its `amr` values (separated by spaces; null when none were said). */
export function acrOf(amr: string | null | undefined): string {
  return amr?.split(' ').includes(MULTI_FACTOR_AMR)
    ? ACR_SECOND_FACTOR
    : ACR_ONE_FACTOR;
}

/** What a `claims` parameter asks of this provider. */
export interface ClaimsRequest {
  /** Scopes whose claims were asked for by name: the person consents to them like asked scopes. */
  scopes: string[];
  /** `acr` values demanded as essential (Core §5.5.1.1); undefined when acr is not essential. */
  essentialAcr?: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a `claims` parameter: a JSON object whose `id_token` and `userinfo` members, when
 * present, map claim names to null or to an object (`essential`, `value`, `values`).
 * Undefined when it is not one. Claims this provider does not know are ignored, as Core allows.
 */
export function readClaimsRequest(text: string): ClaimsRequest | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(parsed)) return undefined;
  const scopes = new Set<string>();
  let essentialAcr: string[] | undefined;
  for (const target of ['id_token', 'userinfo'] as const) {
    const members = parsed[target];
    if (members === undefined) continue;
    if (!isObject(members)) return undefined;
    for (const [claim, spec] of Object.entries(members)) {
      if (spec !== null && !isObject(spec)) return undefined;
      // A Map, so names like `__proto__` or `constructor` from the client's JSON find nothing.
      const scope = SCOPE_OF_CLAIM.get(claim);
      if (scope !== undefined) scopes.add(scope);
      if (
        claim === 'acr' &&
        target === 'id_token' &&
        spec?.essential === true
      ) {
        const values =
          spec.values ?? (spec.value === undefined ? undefined : [spec.value]);
        if (
          values !== undefined &&
          (!Array.isArray(values) ||
            !values.every((v) => typeof v === 'string'))
        )
          return undefined;
        // Essential without values: any acr meets it, and every ID token carries one.
        if (values !== undefined && values.length > 0)
          essentialAcr = values as string[];
      }
    }
  }
  return {
    scopes: [...scopes],
    ...(essentialAcr !== undefined && { essentialAcr }),
  };
}
