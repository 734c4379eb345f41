/** Scope strings (docs/api.md §5.2, §5): split on spaces or `+`, de-duplicated, one space. */

const SCOPE_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

export function isValidScopeName(v: string): boolean {
  return SCOPE_NAME.test(v);
}

/** The distinct scope names of a request string, in order of first appearance. */
export function splitScope(raw: string): string[] {
  return [...new Set(raw.split(/[ +]+/).filter((s) => s !== ''))];
}

/**
 * The scope granted for a request: omitted (or blank) → the app's scopes; otherwise the
 * normalised request, which must stay within the app's scopes when it lists any.
 * Returns undefined when the request is not acceptable.
 */
export function grantScope(
  requested: string | undefined,
  appScopes: readonly string[],
): string | undefined {
  const names = requested === undefined ? [] : splitScope(requested);
  if (names.length === 0) return [...new Set(appScopes)].join(' ');
  if (!names.every(isValidScopeName)) return undefined;
  if (appScopes.length > 0 && !names.every((n) => appScopes.includes(n)))
    return undefined;
  return names.join(' ');
}
