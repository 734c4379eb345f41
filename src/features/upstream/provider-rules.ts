/**
 * What a provider of each type is (docs/api.md §14.1): its documented endpoints and scopes,
 * and the rules an administrator's settings must follow. Pure: no I/O.
 */
import { AppError } from '../../errors/index.js';
import {
  PROVIDER_TYPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
  type ProviderRecord,
  type ProviderSettings,
  type ProviderType,
  type TokenEndpointAuthMethod,
} from './repository.js';

/** An option that breaks its rule: the API answers `参数错误：<field>`, the CLI names `--<field>` and why. */
export class ProviderOptionError extends AppError {
  constructor(
    readonly field: string,
    readonly why: string,
  ) {
    super('badParam', undefined, field);
  }
}

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

export const isProviderType = (v: string): v is ProviderType =>
  (PROVIDER_TYPES as readonly string[]).includes(v);

const PROVIDER_ID = /^[a-z0-9-]{2,32}$/;
export const isValidProviderId = (v: string): boolean => PROVIDER_ID.test(v);

/** The settings an administrator gives, as the API and the CLI name them. */
export interface ProviderInput {
  name?: string;
  client_id?: string;
  client_secret?: string;
  api_key?: string;
  issuer?: string;
  scopes?: string;
  trust_email?: boolean;
  require_guild?: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  userinfo_endpoint?: string;
  openid_endpoint?: string;
  api_base?: string;
  subject_field?: string;
  username_field?: string;
  email_field?: string;
  token_endpoint_auth_method?: string;
}

/** Input fields that are endpoint overrides, with the setting each fills. */
const ENDPOINTS = [
  ['authorization_endpoint', 'authorizationEndpoint'],
  ['token_endpoint', 'tokenEndpoint'],
  ['userinfo_endpoint', 'userinfoEndpoint'],
  ['openid_endpoint', 'openidEndpoint'],
  ['api_base', 'apiBase'],
] as const;
const FIELD_MAPS = [
  ['subject_field', 'subjectField'],
  ['username_field', 'usernameField'],
  ['email_field', 'emailField'],
] as const;

type EndpointField = (typeof ENDPOINTS)[number][0];
const CODE_FLOW: readonly EndpointField[] = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
];
/**
 * The endpoints each type reads, so an override it would never read is refused rather than
 * silently ignored. `userinfo_endpoint` is where the profile is read: GitHub's `/user`,
 * Discord's `/users/@me`, QQ's `/user/get_user_info`, WeChat's `/sns/userinfo`; `api_base`
 * holds the rest of the provider's own API.
 */
const USED_ENDPOINTS: Record<ProviderType, readonly EndpointField[]> = {
  oidc: CODE_FLOW,
  google: CODE_FLOW,
  microsoft: CODE_FLOW,
  oauth2: CODE_FLOW,
  github: [...CODE_FLOW, 'api_base'],
  discord: [...CODE_FLOW, 'api_base'],
  qq: [...CODE_FLOW, 'api_base'],
  wechat: [...CODE_FLOW, 'api_base'],
  steam: ['openid_endpoint', 'api_base'],
};

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http on this machine only (a test stand-in, a provider on the same host). */
function checkUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProviderOptionError(field, 'must be an absolute https URL');
  }
  const ok =
    url.protocol === 'https:' ||
    (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  if (!ok || url.hash || url.username || url.password)
    throw new ProviderOptionError(
      field,
      'must be an absolute https URL (http only for localhost)',
    );
  return value.replace(/\/+$/, '');
}

function text(field: string, value: string, max: number): string {
  const v = value.trim();
  if (v === '' || [...v].length > max || /[\u0000-\u001f\u007f]/.test(v))
    throw new ProviderOptionError(
      field,
      `must be 1–${max} characters on one line`,
    );
  return v;
}

/**
 * The stored provider after applying `input` to `base` (a new provider: the id and type with
 * nothing else). An empty string clears an optional setting. Secrets come back in clear in
 * `secrets`; the caller seals them.
 */
export function applyProviderInput(
  base: Pick<ProviderRecord, 'type'> & Partial<ProviderRecord>,
  input: ProviderInput,
  creating: boolean,
) {
  const type = base.type;
  const preset = PRESETS[type];
  const settings: ProviderSettings = { ...(base.settings ?? {}) };
  const has = (v: string | undefined): v is string => v !== undefined;

  const name = has(input.name) ? text('name', input.name, 32) : base.name;
  if (name === undefined) throw new ProviderOptionError('name', 'is required');
  let clientId = has(input.client_id)
    ? input.client_id.trim()
    : (base.clientId ?? '');
  if (
    has(input.client_id) &&
    (clientId.length > 256 || /[\u0000-\u001f\u007f\s]/.test(clientId))
  )
    throw new ProviderOptionError(
      'client_id',
      'must be 1–256 characters without spaces',
    );
  if (type === 'steam') clientId = clientId || '';
  else if (clientId === '')
    throw new ProviderOptionError('client_id', 'is required');

  if (
    has(input.client_secret) &&
    (input.client_secret === '' || input.client_secret.length > 1024)
  )
    throw new ProviderOptionError('client_secret', 'must be 1–1024 characters');
  if (!preset.needsSecret && has(input.client_secret))
    throw new ProviderOptionError(
      'client_secret',
      `is not used by type ${type}`,
    );
  if (creating && preset.needsSecret && !has(input.client_secret))
    throw new ProviderOptionError('client_secret', 'is required');
  if (has(input.api_key) && input.api_key !== '' && type !== 'steam')
    throw new ProviderOptionError('api_key', 'is only for type steam');
  if (has(input.api_key) && input.api_key.length > 256)
    throw new ProviderOptionError('api_key', 'must be at most 256 characters');

  let issuer = base.issuer ?? null;
  // Clearing a setting the type has no use for (the console sends every field) changes nothing.
  if (has(input.issuer) && (input.issuer !== '' || ISSUER_TYPES.has(type))) {
    if (!ISSUER_TYPES.has(type))
      throw new ProviderOptionError(
        'issuer',
        'is only for types oidc, google and microsoft',
      );
    issuer = input.issuer === '' ? null : checkUrl('issuer', input.issuer);
  }
  if (type === 'oidc' && issuer === null)
    throw new ProviderOptionError('issuer', 'is required for type oidc');

  let scopes = base.scopes ?? null;
  if (has(input.scopes)) {
    const list = input.scopes.split(/[\s,]+/).filter(Boolean);
    if (list.length > 20 || list.some((s) => !/^[\x21-\x7e]{1,64}$/.test(s)))
      throw new ProviderOptionError(
        'scopes',
        'must be up to 20 names separated by spaces',
      );
    scopes = list.length ? [...new Set(list)].join(' ') : null;
  }
  if (type === 'steam' && scopes !== null)
    throw new ProviderOptionError('scopes', 'are not used by type steam');

  for (const [field, key] of ENDPOINTS) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === '') delete settings[key];
    else if (!USED_ENDPOINTS[type].includes(field))
      throw new ProviderOptionError(field, `is not used by type ${type}`);
    else settings[key] = checkUrl(field, value);
  }
  for (const [field, key] of FIELD_MAPS) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === '') delete settings[key];
    else if (type !== 'oauth2')
      throw new ProviderOptionError(field, 'is only for type oauth2');
    else if (/^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,3}$/.test(value))
      settings[key] = value;
    else
      throw new ProviderOptionError(
        field,
        'must be a field name (a.b for a nested one)',
      );
  }
  if (input.require_guild !== undefined) {
    if (input.require_guild === '') delete settings.requireGuild;
    else if (type !== 'discord')
      throw new ProviderOptionError(
        'require_guild',
        'is only for type discord',
      );
    else if (/^\d{1,20}$/.test(input.require_guild))
      settings.requireGuild = input.require_guild;
    else
      throw new ProviderOptionError(
        'require_guild',
        'must be a Discord server id (digits)',
      );
  }
  if (input.token_endpoint_auth_method !== undefined) {
    const method = input.token_endpoint_auth_method;
    if (method === '') delete settings.tokenEndpointAuthMethod;
    else if (type === 'steam')
      throw new ProviderOptionError(
        'token_endpoint_auth_method',
        'is not used by type steam',
      );
    else if (
      (TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(method)
    )
      settings.tokenEndpointAuthMethod = method as TokenEndpointAuthMethod;
    else
      throw new ProviderOptionError(
        'token_endpoint_auth_method',
        `must be ${TOKEN_ENDPOINT_AUTH_METHODS.join(' or ')}`,
      );
  }
  if (input.trust_email !== undefined) {
    if (input.trust_email) settings.trustEmail = true;
    else delete settings.trustEmail;
  }
  if (type === 'oauth2') {
    for (const [field, key] of [
      ['authorization_endpoint', 'authorizationEndpoint'],
      ['token_endpoint', 'tokenEndpoint'],
      ['userinfo_endpoint', 'userinfoEndpoint'],
    ] as const) {
      if (!settings[key])
        throw new ProviderOptionError(field, 'is required for type oauth2');
    }
  }
  return {
    name,
    clientId,
    issuer,
    scopes,
    settings,
    secrets: { clientSecret: input.client_secret, apiKey: input.api_key },
  };
}

/** The scopes asked for: the configured ones or the type's, plus `guilds` when a Discord server is required. */
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
