/** The pages' rule for `next` (docs/api.md §11.3): followed only to a path on this origin. */

/**
 * Where the sign-in pages go afterwards (`next`): only a path on this origin, judged on the
 * normalised result, since that is what the browser follows. `/.//evil.example/x` reads as a
 * local path but normalises to `//evil.example/x`, which a browser takes for another host.
 * Anything else (another origin, `//…`, `/\…`, a scheme) goes to `fallback`.
 */
export function safeReturnPath(
  raw: string | null | undefined,
  origin: string,
  fallback = '/account',
): string {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\'))
    return fallback;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return fallback;
  }
  const path = url.pathname + url.search;
  const localPath =
    path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
  return url.origin === origin && localPath ? path : fallback;
}
