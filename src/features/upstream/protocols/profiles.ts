/**
 * Where the OAuth 2.0 presets keep the person (docs/api.md §14.1), read once with the access
 * token, which is then dropped:
 * - GitHub: `GET /user`, and `GET /user/emails` for the primary address when it is verified
 *   (https://docs.github.com/en/rest/users/users#get-the-authenticated-user,
 *   https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user);
 * - Discord: `GET /users/@me`, and `GET /users/@me/guilds` when a server is required
 *   (https://discord.com/developers/docs/resources/user#get-current-user);
 * - any other OAuth 2.0 server: its userinfo URL, with the field names configured.
 */
import { endpointOf } from '../provider-rules.js';
import type { ProviderRecord } from '../repository.js';
import { avatarUrl, getJson, idText, optionalText } from './http.js';
import {
  claimMemberships,
  discordRoles,
  githubMemberships,
  membershipsOf,
} from './memberships.js';
import {
  UpstreamError,
  type ActiveProvider,
  type UpstreamProfile,
} from './types.js';

export async function profileOf(
  p: ActiveProvider,
  accessToken: string,
): Promise<UpstreamProfile> {
  switch (p.record.type) {
    case 'github':
      return github(p, accessToken);
    case 'discord':
      return discord(p, accessToken);
    default:
      return mapped(p, accessToken);
  }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Where the profile is read: the configured userinfo_endpoint, else the preset's address on api_base. */
export const profileUrl = (p: ActiveProvider, preset: string): string =>
  endpointOf(p.record, 'userinfoEndpoint') ?? preset;

function object(v: unknown, what: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new UpstreamError('provider', `${what}: not an object`);
  return v as Record<string, unknown>;
}

function subjectOf(v: unknown, what: string): string {
  const id = idText(v);
  if (id === undefined) throw new UpstreamError('provider', `${what}: no id`);
  return id;
}

async function github(
  p: ActiveProvider,
  token: string,
): Promise<UpstreamProfile> {
  const api = endpointOf(p.record, 'apiBase') as string;
  const headers = {
    ...bearer(token),
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  };
  const user = object(
    await getJson(profileUrl(p, `${api}/user`), headers),
    'GitHub user',
  );
  // The address list needs the user:email scope; without it the person simply has no address here.
  const emails = await getJson(`${api}/user/emails`, headers).catch(() => []);
  const primary = Array.isArray(emails)
    ? emails.find(
        (e): e is { email: string } =>
          !!e &&
          typeof e === 'object' &&
          e.primary === true &&
          e.verified === true &&
          typeof e.email === 'string',
      )
    : undefined;
  return {
    subject: subjectOf(user.id, 'GitHub user'),
    username: optionalText(user.login),
    displayName: optionalText(user.name) ?? optionalText(user.login),
    email: primary?.email,
    emailVerified: primary !== undefined,
    avatarUrl: avatarUrl(user.avatar_url),
    ...(p.record.settings.roleMap && {
      memberships: await membershipsOf(() => githubMemberships(api, headers)),
    }),
  };
}

async function discord(
  p: ActiveProvider,
  token: string,
): Promise<UpstreamProfile> {
  const api = endpointOf(p.record, 'apiBase') as string;
  const user = object(
    await getJson(profileUrl(p, `${api}/users/@me`), bearer(token)),
    'Discord user',
  );
  const id = subjectOf(user.id, 'Discord user');
  const guild = p.record.settings.requireGuild;
  if (guild !== undefined) {
    const guilds = await getJson(`${api}/users/@me/guilds`, bearer(token));
    const member =
      Array.isArray(guilds) &&
      guilds.some(
        (g) =>
          !!g && typeof g === 'object' && (g as { id?: unknown }).id === guild,
      );
    if (!member)
      throw new UpstreamError(
        'notMember',
        `not a member of Discord server ${guild}`,
      );
  }
  const email = optionalText(user.email);
  const avatar = optionalText(user.avatar);
  const roleGuild = p.record.settings.roleGuild;
  const memberships =
    p.record.settings.roleMap && roleGuild
      ? await membershipsOf(() => discordRoles(api, bearer(token), roleGuild))
      : undefined;
  return {
    ...(memberships && { memberships }),
    subject: id,
    username: optionalText(user.username),
    displayName: optionalText(user.global_name) ?? optionalText(user.username),
    email,
    // Discord sends `verified` for the address it holds (the `email` scope).
    emailVerified:
      email !== undefined &&
      (user.verified === true || p.record.settings.trustEmail === true),
    avatarUrl:
      avatar && /^[a-z0-9_]{1,64}$/i.test(avatar)
        ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png`
        : undefined,
  };
}

/** A dotted path (`data.user.id`) into a JSON object. */
function at(obj: Record<string, unknown>, path: string): unknown {
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, part))
      return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

async function mapped(
  p: ActiveProvider,
  token: string,
): Promise<UpstreamProfile> {
  const s = p.record.settings;
  const info = object(
    await getJson(
      endpointOf(p.record, 'userinfoEndpoint') as string,
      bearer(token),
    ),
    'userinfo',
  );
  const email = optionalText(at(info, s.emailField ?? 'email'));
  return {
    subject: subjectOf(at(info, s.subjectField ?? 'sub'), 'userinfo'),
    username: optionalText(at(info, s.usernameField ?? 'preferred_username')),
    displayName: optionalText(info.name),
    email,
    emailVerified:
      email !== undefined &&
      (info.email_verified === true || s.trustEmail === true),
    avatarUrl: avatarUrl(info.picture ?? info.avatar_url),
  };
}

/** The OpenID Connect standard claims as a profile (docs/api.md §14.1), and the role map's claim. */
export function oidcProfile(
  c: Record<string, unknown>,
  record: ProviderRecord,
): UpstreamProfile {
  const text = (v: unknown) =>
    typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
  const email = text(c.email);
  return {
    subject: String(c.sub),
    username: text(c.preferred_username) ?? text(c.nickname),
    displayName: text(c.name),
    email,
    emailVerified:
      email !== undefined &&
      (c.email_verified === true || record.settings.trustEmail === true),
    avatarUrl:
      typeof c.picture === 'string' && /^https:\/\//i.test(c.picture)
        ? c.picture
        : undefined,
    ...(record.settings.roleMap && {
      memberships: claimMemberships(c, record),
    }),
  };
}
