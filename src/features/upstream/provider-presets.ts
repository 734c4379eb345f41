/**
 * What a provider of each type is (docs/api.md §14.1): its documented endpoints and scopes,
 * and the addresses and scopes a configured provider uses. Pure: no I/O.
 */
import type {
  ProviderRecord,
  ProviderSettings,
  ProviderType,
} from './repository.js';
import { roleMapScope } from './role-map-rules.js';

/** Where each preset's endpoints are, as the provider documents them; every one can be overridden. */
export interface ProviderPreset {
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  userinfoEndpoint?: string;
  openidEndpoint?: string;
  apiBase?: string;
  issuer?: string;
  scopes: string;
  /** Whether the type signs in with client credentials at all (Steam's OpenID 2.0 has none). */
  needsSecret: boolean;
}

export const PRESETS: Record<ProviderType, ProviderPreset> = {
  oidc: { scopes: 'openid profile email', needsSecret: true },
  google: {
    issuer: 'https://accounts.google.com',
    scopes: 'openid profile email',
    needsSecret: true,
  },
  // Personal Microsoft accounts: the tenant of the `consumers` endpoint, whose documents name it
  // as issuer. Work accounts: --issuer https://login.microsoftonline.com/<tenant id>/v2.0.
  microsoft: {
    issuer:
      'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0',
    scopes: 'openid profile email',
    needsSecret: true,
  },
  oauth2: { scopes: '', needsSecret: true },
  github: {
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    apiBase: 'https://api.github.com',
    scopes: 'read:user user:email',
    needsSecret: true,
  },
  discord: {
    authorizationEndpoint: 'https://discord.com/oauth2/authorize',
    tokenEndpoint: 'https://discord.com/api/oauth2/token',
    apiBase: 'https://discord.com/api',
    scopes: 'identify email',
    needsSecret: true,
  },
  steam: {
    openidEndpoint: 'https://steamcommunity.com/openid/login',
    apiBase: 'https://api.steampowered.com',
    scopes: '',
    needsSecret: false,
  },
  qq: {
    authorizationEndpoint: 'https://graph.qq.com/oauth2.0/authorize',
    tokenEndpoint: 'https://graph.qq.com/oauth2.0/token',
    apiBase: 'https://graph.qq.com',
    scopes: 'get_user_info',
    needsSecret: true,
  },
  wechat: {
    authorizationEndpoint: 'https://open.weixin.qq.com/connect/qrconnect',
    tokenEndpoint: 'https://api.weixin.qq.com/sns/oauth2/access_token',
    apiBase: 'https://api.weixin.qq.com',
    scopes: 'snsapi_login',
    needsSecret: true,
  },
};

/** The types that discover their endpoints from an issuer (OpenID Connect). */
export const ISSUER_TYPES: ReadonlySet<ProviderType> = new Set([
  'oidc',
  'google',
  'microsoft',
]);

/**
 * The scopes asked for: the configured ones or the type's, plus `guilds` when a Discord server
 * is required and what a role map reads (role-map-rules.ts).
 */
export function scopesOf(
  p: Pick<ProviderRecord, 'type' | 'scopes' | 'settings'>,
): string[] {
  const list = (p.scopes ?? PRESETS[p.type].scopes).split(' ').filter(Boolean);
  if (
    p.type === 'discord' &&
    p.settings.requireGuild &&
    !list.includes('guilds')
  )
    list.push('guilds');
  const forRoles = roleMapScope(p.type, p.settings);
  if (forRoles && !list.includes(forRoles)) list.push(forRoles);
  if (ISSUER_TYPES.has(p.type) && !list.includes('openid'))
    list.unshift('openid');
  return list;
}

/** A setting, else the preset's documented value. */
export function endpointOf(
  p: Pick<ProviderRecord, 'type' | 'settings'>,
  key: keyof ProviderPreset & keyof ProviderSettings,
): string | undefined {
  return (
    (p.settings[key] as string | undefined) ??
    (PRESETS[p.type][key] as string | undefined)
  );
}

export function issuerOf(
  p: Pick<ProviderRecord, 'type' | 'issuer'>,
): string | undefined {
  return p.issuer ?? PRESETS[p.type].issuer;
}
