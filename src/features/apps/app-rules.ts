/** Application (client) rules of docs/api.md §4 as pure functions: ids, field validation, views. */
import { randomBytes } from 'node:crypto';
import { isValidDisplayName } from '../accounts/index.js';
import { accept, refuse, type Outcome } from '../../errors/outcome.js';
import { isValidOrigin, isValidRedirectUri } from './redirect-uris.js';
import { isValidScopeName } from './scope.js';
import { isReservedScopeName } from './admin-scopes.js';

export const CLIENT_TYPES = ['confidential', 'public'] as const;
export type ClientTypeName = (typeof CLIENT_TYPES)[number];
export const MAX_REDIRECT_URIS = 20;
export const MAX_CORS_ORIGINS = 20;
export const MAX_SCOPES = 20;
export const HOMEPAGE_MAX = 2048;
/**
 * Apps with a back-channel logout address one owner who is not an administrator may have:
 * every such app can be made to receive a logout token per sign-in, so the count bounds how
 * many slow addresses one account can put before the delivery loop.
 */
export const MAX_BACKCHANNEL_APPS_PER_OWNER = 5;

const CLIENT_ID = /^[a-z0-9][a-z0-9_-]{2,63}$/;
const DIGITS_ONLY = /^[0-9]+$/;

/**
 * A `client_credentials` token's `sub` is its client id, and a person's `sub` is their
 * numeric id (docs/api.md §12.5): an id of digits alone could name a person to a resource server
 * that trusts `sub` (RFC 9068 §5), so such ids are never registered.
 */
export function couldBeUserSubject(clientId: string): boolean {
  return DIGITS_ONLY.test(clientId);
}

/**
 * A generated client id: 24 hex digits. About one draw in 75,000 is decimal digits only, an id
 * the token endpoint would never give a `client_credentials` token (couldBeUserSubject), so
 * such a draw is made again.
 */
export function newClientId(
  draw: (bytes: number) => Buffer = randomBytes,
): string {
  for (;;) {
    const id = draw(12).toString('hex');
    if (!couldBeUserSubject(id)) return id;
  }
}

export function isValidClientId(v: string): boolean {
  return CLIENT_ID.test(v) && !couldBeUserSubject(v);
}

export function isClientType(v: string): v is ClientTypeName {
  return (CLIENT_TYPES as readonly string[]).includes(v);
}

/**
 * The service's own ids (CENTER_APP_ID, GAME_APP_ID) are never registrable: an app under
 * one of them would be handed first-party or game tokens by exchange.
 */
export function isReservedClientId(
  clientId: string,
  reserved: readonly string[],
): boolean {
  return reserved.includes(clientId);
}

/** '' (no homepage) or an absolute http(s) address. */
export function isValidHomepage(v: string): boolean {
  if (v === '') return true;
  if (v.length > HOMEPAGE_MAX || /[\s\u0000-\u001f\u007f]/.test(v))
    return false;
  try {
    const u = new URL(v);
    return (
      (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== ''
    );
  } catch {
    return false;
  }
}

const dedupe = (list: readonly string[]): string[] => [...new Set(list)];

export interface AppFieldsInput {
  display_name?: string;
  homepage?: string;
  redirect_uris?: string[];
  cors_origins?: string[];
  scopes?: string[];
}

export interface AppFields {
  displayName?: string;
  homepage?: string;
  redirectUris?: string[];
  corsOrigins?: string[];
  scopes?: string[];
}

/**
 * Validates the editable fields of an app; on create, display_name and redirect_uris are
 * required. Lists are de-duplicated keeping their order; display names are trimmed.
 * `machineOnly`: the app will hold the client_credentials grant alone, sends no browser
 * anywhere, and may have an empty redirect_uris list.
 */
export function checkAppFields(
  input: AppFieldsInput,
  creating: boolean,
  machineOnly = false,
): Outcome<AppFields> {
  const out: AppFields = {};
  if (input.display_name !== undefined || creating) {
    if (
      input.display_name === undefined ||
      !isValidDisplayName(input.display_name)
    )
      return refuse('badParam', 'display_name');
    out.displayName = input.display_name.trim();
  }
  if (input.homepage !== undefined) {
    if (!isValidHomepage(input.homepage)) return refuse('badParam', 'homepage');
    out.homepage = input.homepage;
  }
  if (input.redirect_uris !== undefined || creating) {
    const uris = input.redirect_uris;
    if (
      !uris ||
      uris.length < (machineOnly ? 0 : 1) ||
      uris.length > MAX_REDIRECT_URIS
    )
      return refuse('badParam', 'redirect_uris');
    if (!uris.every(isValidRedirectUri)) return refuse('badRedirectUriFormat');
    out.redirectUris = dedupe(uris);
  }
  if (input.cors_origins !== undefined) {
    if (input.cors_origins.length > MAX_CORS_ORIGINS)
      return refuse('badParam', 'cors_origins');
    if (!input.cors_origins.every(isValidOrigin))
      return refuse('badOriginFormat');
    out.corsOrigins = dedupe(input.cors_origins);
  }
  if (input.scopes !== undefined) {
    if (
      input.scopes.length > MAX_SCOPES ||
      !input.scopes.every((s) => isValidScopeName(s) && !isReservedScopeName(s))
    )
      return refuse('badParam', 'scopes');
    out.scopes = dedupe(input.scopes);
  }
  return accept(out);
}

/** Unix seconds from the milliseconds storage keeps. */
export const toUnixSeconds = (ms: number): number => Math.floor(ms / 1000);

/** Whether these grants are `client_credentials` alone: an app that needs no redirect URI. */
export const isMachineOnly = (grants: readonly string[]): boolean =>
  grants.length > 0 && grants.every((g) => g === 'client_credentials');
