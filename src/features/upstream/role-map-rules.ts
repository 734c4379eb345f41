/**
 * Role maps (docs/upstream.md "Roles from the provider"): which upstream memberships give
 * which center roles, per provider type. Pure: no I/O.
 * - discord: a server (`guild_id`) and its role ids;
 * - github: `org` or `org/team-slug` (GitHub compares both without case: stored lower-case);
 * - oidc, google, microsoft: the values of one claim (`role_claim`, default `groups`).
 */
import { isValidRole } from '../accounts/index.js';
import type { ProviderSettings, ProviderType } from './repository.js';

/** The fields of add and update that set a role map. */
export interface RoleMapInput {
  /** An object, or its JSON text (the CLI's `--role-map`); `{}` or '' clears it. */
  role_map?: unknown;
  guild_id?: string;
  role_claim?: string;
}

/** A role map field that breaks its rule: the field and why, as ProviderOptionError words it. */
export type RoleMapProblem = { field: string; why: string };

export const DEFAULT_ROLE_CLAIM = 'groups';
const MAX_ENTRIES = 100;

const KEY_RULES: Partial<
  Record<ProviderType, { test: (key: string) => boolean; why: string }>
> = {
  discord: {
    test: (k) => /^\d{1,20}$/.test(k),
    why: 'keys must be Discord role ids (digits)',
  },
  github: {
    test: (k) =>
      /^[a-z0-9](?:[a-z0-9-]{0,38})(?:\/[a-z0-9][a-z0-9_.-]{0,99})?$/.test(k),
    why: 'keys must be an organization or organization/team-slug',
  },
};
const claimValue = {
  test: (k: string) => k.length >= 1 && k.length <= 256 && !/\p{Cc}/u.test(k),
  why: 'keys must be claim values of 1–256 characters',
};
const CLAIM_TYPES: readonly ProviderType[] = ['oidc', 'google', 'microsoft'];

/** The types a role map is read for. */
export const mapsRoles = (type: ProviderType): boolean =>
  type === 'discord' || type === 'github' || CLAIM_TYPES.includes(type);

function parsed(value: unknown): Record<string, unknown> | RoleMapProblem {
  let v = value;
  if (typeof v === 'string') {
    if (v.trim() === '') return {};
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return { field: 'role_map', why: 'is not valid JSON' };
    }
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return {
      field: 'role_map',
      why: 'must be a JSON object {"upstream":"role",…}',
    };
  return v as Record<string, unknown>;
}

const isProblem = (v: unknown): v is RoleMapProblem =>
  !!v && typeof v === 'object' && 'why' in v && 'field' in v;

/** The checked map as stored: keys as compared, values valid role names. */
function checkedMap(
  type: ProviderType,
  value: unknown,
): Record<string, string> | RoleMapProblem {
  const obj = parsed(value);
  if (isProblem(obj)) return obj;
  const entries = Object.entries(obj);
  if (entries.length > MAX_ENTRIES)
    return {
      field: 'role_map',
      why: `must have at most ${MAX_ENTRIES} entries`,
    };
  const rule = KEY_RULES[type] ?? claimValue;
  const checked: Array<[string, string]> = [];
  for (const [rawKey, role] of entries) {
    const key = type === 'github' ? rawKey.trim().toLowerCase() : rawKey;
    if (!rule.test(key)) return { field: 'role_map', why: rule.why };
    if (typeof role !== 'string' || !isValidRole(role))
      return {
        field: 'role_map',
        why: 'values must be role names of 1–32 of a-z 0-9 _ -',
      };
    checked.push([key, role]);
  }
  // Own properties only, whatever the key (`__proto__` included): lookups use Object.hasOwn.
  return Object.fromEntries(checked);
}

/** `settings` with the role map fields of `input` applied; a problem when one breaks its rule. */
export function applyRoleMapInput(
  type: ProviderType,
  settings: ProviderSettings,
  input: RoleMapInput,
): RoleMapProblem | undefined {
  if (input.role_map !== undefined) {
    const map = checkedMap(type, input.role_map);
    if (isProblem(map)) return map;
    if (Object.keys(map).length === 0) delete settings.roleMap;
    else if (!mapsRoles(type))
      return {
        field: 'role_map',
        why: 'is only for types discord, github, oidc, google and microsoft',
      };
    else settings.roleMap = map;
  }
  if (input.guild_id !== undefined) {
    if (input.guild_id === '') delete settings.roleGuild;
    else if (type !== 'discord')
      return { field: 'guild_id', why: 'is only for type discord' };
    else if (/^\d{1,20}$/.test(input.guild_id))
      settings.roleGuild = input.guild_id;
    else
      return { field: 'guild_id', why: 'must be a Discord server id (digits)' };
  }
  if (input.role_claim !== undefined) {
    if (input.role_claim === '') delete settings.roleClaim;
    else if (!CLAIM_TYPES.includes(type))
      return {
        field: 'role_claim',
        why: 'is only for types oidc, google and microsoft',
      };
    else if (/^[A-Za-z0-9_:.-]{1,64}$/.test(input.role_claim))
      settings.roleClaim = input.role_claim;
    else
      return {
        field: 'role_claim',
        why: 'must be a claim name of 1–64 of A-Z a-z 0-9 _ : . -',
      };
  }
  if (type === 'discord' && settings.roleMap && !settings.roleGuild)
    return { field: 'guild_id', why: 'is required with a Discord role map' };
  return undefined;
}

/** The scope a role map needs on top of the sign-in's: Discord's member read, GitHub's organizations. */
export function roleMapScope(
  type: ProviderType,
  settings: ProviderSettings,
): string | undefined {
  if (!settings.roleMap) return undefined;
  if (type === 'discord') return 'guilds.members.read';
  if (type === 'github') return 'read:org';
  return undefined;
}
