/**
 * What a provider of each type is (docs/api.md §14.1): its documented endpoints and scopes,
 * and the rules an administrator's settings must follow. Pure: no I/O.
 */
import { AppError } from '../../errors/index.js';
import { ISSUER_TYPES, PRESETS } from './provider-presets.js';
import {
  PROVIDER_TYPES,
  TOKEN_ENDPOINT_AUTH_METHODS,
  type ProviderRecord,
  type ProviderSettings,
  type ProviderType,
  type TokenEndpointAuthMethod,
} from './repository.js';
import { applyRoleMapInput, type RoleMapInput } from './role-map-rules.js';

export {
  endpointOf,
  ISSUER_TYPES,
  issuerOf,
  PRESETS,
  scopesOf,
  type ProviderPreset,
} from './provider-presets.js';

/** An option that breaks its rule: the API answers `参数错误：<field>`, the CLI names `--<field>` and why. */
export class ProviderOptionError extends AppError {
  constructor(
    readonly field: string,
    readonly why: string,
  ) {
    super('badParam', undefined, field);
  }
}

export const isProviderType = (v: string): v is ProviderType =>
  (PROVIDER_TYPES as readonly string[]).includes(v);

const PROVIDER_ID = /^[a-z0-9-]{2,32}$/;
export const isValidProviderId = (v: string): boolean => PROVIDER_ID.test(v);

/** The settings an administrator gives, as the API and the CLI name them. */
export interface ProviderInput extends RoleMapInput {
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
  const roleProblem = applyRoleMapInput(type, settings, input);
  if (roleProblem)
    throw new ProviderOptionError(roleProblem.field, roleProblem.why);
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
