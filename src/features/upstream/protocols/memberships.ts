/**
 * The memberships a role map is matched against, read with the sign-in's access token, which
 * is then dropped:
 * - Discord: `GET {api}/users/@me/guilds/{guild}/member` (scope `guilds.members.read`), its
 *   `roles` (https://discord.com/developers/docs/resources/user#get-current-user-guild-member);
 *   a 404 (`Unknown Guild`, `Unknown Member`) means the person is not in the server: no roles;
 * - GitHub: `GET {api}/user/orgs` as `org` and `GET {api}/user/teams` as `org/team-slug`
 *   (scope `read:org`; https://docs.github.com/en/rest/orgs/orgs#list-organizations-for-the-authenticated-user,
 *   https://docs.github.com/en/rest/teams/teams#list-teams-for-the-authenticated-user);
 * - OpenID Connect: the configured claim (default `groups`) of the ID token or UserInfo.
 * A failure is returned, not thrown: it never stops the sign-in (role-map-sync.ts).
 */
import { DEFAULT_ROLE_CLAIM } from '../role-map-rules.js';
import type { ProviderRecord } from '../repository.js';
import { getJson, upstreamFetch } from './http.js';
import { UpstreamError, type Memberships } from './types.js';

/** GitHub answers at most this many per page; more pages are read up to MAX_PAGES. */
const PER_PAGE = 100;
const MAX_PAGES = 5;

/** The memberships, or why they could not be read. */
export async function membershipsOf(
  read: () => Promise<string[]>,
): Promise<Memberships> {
  try {
    return { values: await read() };
  } catch (err) {
    const message =
      err instanceof UpstreamError ? err.message : 'unexpected failure';
    return { error: message.slice(0, 300) };
  }
}

function list(v: unknown, what: string): Record<string, unknown>[] {
  if (!Array.isArray(v))
    throw new UpstreamError('provider', `${what}: not a list`);
  return v.filter(
    (e): e is Record<string, unknown> => !!e && typeof e === 'object',
  );
}

export async function discordRoles(
  api: string,
  headers: Record<string, string>,
  guild: string,
): Promise<string[]> {
  const url = `${api}/users/@me/guilds/${guild}/member`;
  let member: unknown;
  try {
    member = await getJson(url, headers);
  } catch (err) {
    if (err instanceof UpstreamError && / HTTP 404$/.test(err.message))
      return [];
    throw err;
  }
  const roles = (member as { roles?: unknown } | null)?.roles;
  if (!Array.isArray(roles) || roles.some((r) => typeof r !== 'string'))
    throw new UpstreamError('provider', 'Discord member: no roles list');
  return roles as string[];
}

async function pages(
  url: string,
  headers: Record<string, string>,
  what: string,
): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const text = await upstreamFetch(
      `${url}?per_page=${PER_PAGE}&page=${page}`,
      { headers },
    );
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UpstreamError('provider', `${what}: not JSON`);
    }
    const rows = list(parsed, what);
    all.push(...rows);
    if (rows.length < PER_PAGE) break;
  }
  return all;
}

/** Organizations as `org` and teams as `org/team-slug`, lower-case as GitHub compares them. */
export async function githubMemberships(
  api: string,
  headers: Record<string, string>,
): Promise<string[]> {
  const [orgs, teams] = await Promise.all([
    pages(`${api}/user/orgs`, headers, 'GitHub organizations'),
    pages(`${api}/user/teams`, headers, 'GitHub teams'),
  ]);
  const out = new Set<string>();
  for (const o of orgs)
    if (typeof o.login === 'string') out.add(o.login.toLowerCase());
  for (const t of teams) {
    const org = (t.organization as { login?: unknown } | null)?.login;
    if (typeof org === 'string' && typeof t.slug === 'string')
      out.add(`${org}/${t.slug}`.toLowerCase());
  }
  return [...out];
}

/** The claim's values: a list of strings, or one string; absent means none. */
export function claimMemberships(
  claims: Record<string, unknown>,
  record: ProviderRecord,
): Memberships {
  const name = record.settings.roleClaim ?? DEFAULT_ROLE_CLAIM;
  const v = claims[name];
  if (v === undefined || v === null) return { values: [] };
  if (typeof v === 'string') return { values: [v] };
  if (Array.isArray(v) && v.every((e) => typeof e === 'string'))
    return { values: v as string[] };
  return { error: `claim ${name}: not a string or a list of strings` };
}
