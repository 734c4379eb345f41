/**
 * The rules of an OpenID Connect authorization request (docs/api.md §12.3; RFC 6749 §4.1,
 * OIDC Core §3.1.2, RFC 7636), as pure functions. Errors that concern the client or its
 * callback are shown on a page; every other error goes back to the validated callback.
 */
import { isValidScopeName, splitScope } from '../apps/index.js';
import { readClaimsRequest } from './requested-claims.js';

/** Scopes every client may ask for, whatever its own list says. */
export const STANDARD_SCOPES = [
  'openid',
  'profile',
  'email',
  'offline_access',
  // The person's roles (docs/oidc.md): a claim apps map to their own permissions.
  'roles',
] as const;
export const PROMPTS = ['none', 'login', 'consent', 'select_account'] as const;
export type Prompt = (typeof PROMPTS)[number];

/** What a validated request carries through the pages (inside the ticket) to the code. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  /** Whether redirect_uri was sent (then the token request must repeat it). */
  redirectUriGiven: boolean;
  scopes: string[];
  state?: string;
  nonce?: string;
  codeChallenge?: string;
  prompt: Prompt[];
  /** Seconds; a sign-in older than this must be repeated. */
  maxAge?: number;
  loginHint?: string;
  /** `acr` values the `claims` parameter demands as essential: the sign-in must have one of them. */
  essentialAcr?: string[];
}

/** The facts of a client the request rules need. */
export interface ClientFacts {
  clientId: string;
  redirectUris: readonly string[];
  scopes: readonly string[];
  clientType: string;
  grantTypes: readonly string[];
}

export type RawParams = Record<string, unknown>;

/** An error answered at the client's callback (RFC 6749 §4.1.2.1). */
export interface RedirectError {
  error: string;
  description: string;
}

export type RequestOutcome =
  | { ok: true; request: AuthorizationRequest }
  | { ok: false; error: RedirectError };

/**
 * Longest accepted value per parameter: the request travels through the sign-in page inside
 * a ticket in the URL, which must stay well under the 16 KiB a request line may take.
 */
const MAX_PARAM: Record<string, number> = {
  state: 2048,
  scope: 1024,
  nonce: 512,
  login_hint: 256,
  claims: 4096,
};
const MAX_OTHER = 256;
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** A parameter's single value; `{ repeated }` when it was sent more than once (RFC 6749 §3.1). */
export function single(
  params: RawParams,
  name: string,
): string | undefined | { repeated: true } {
  const v = params[name];
  if (Array.isArray(v))
    return v.length === 1 && typeof v[0] === 'string'
      ? v[0] || undefined
      : { repeated: true };
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The callback a request names: exact match with a registered one, or the only one when it
 * is omitted. Undefined means no callback can be trusted, so the error must go on a page.
 */
export function resolveRedirect(
  registered: readonly string[],
  given: string | undefined,
): { uri: string; given: boolean } | undefined {
  if (given === undefined)
    return registered.length === 1
      ? { uri: registered[0]!, given: false }
      : undefined;
  return registered.includes(given) ? { uri: given, given: true } : undefined;
}

const fail = (error: string, description: string): RequestOutcome => ({
  ok: false,
  error: { error, description },
});

/** The scopes a client may be granted: the standard ones plus the client's own. */
export function allowedScopes(
  client: Pick<ClientFacts, 'scopes'>,
): Set<string> {
  return new Set<string>([...STANDARD_SCOPES, ...client.scopes]);
}

/**
 * Checks everything after the client and callback. `offline_access` is dropped for a client
 * that has no refresh grant: it could never receive the refresh token it asks for.
 */
export function checkRequest(
  params: RawParams,
  client: ClientFacts,
  redirect: { uri: string; given: boolean },
): RequestOutcome {
  // OIDC Core §6.1 and §6.2: a request object, however long, is declined as unsupported, before any length cap.
  if (single(params, 'request') !== undefined)
    return fail('request_not_supported', 'request objects are not supported');
  if (single(params, 'request_uri') !== undefined)
    return fail('request_uri_not_supported', 'request_uri is not supported');
  const names = [
    'response_type',
    'scope',
    'state',
    'nonce',
    'code_challenge',
    'code_challenge_method',
    'prompt',
    'max_age',
    'login_hint',
    'response_mode',
    'claims',
    'acr_values',
  ];
  const v: Record<string, string | undefined> = {};
  for (const name of names) {
    const value = single(params, name);
    if (typeof value === 'object')
      return fail(
        'invalid_request',
        `parameter ${name} was sent more than once`,
      );
    if (value !== undefined && value.length > (MAX_PARAM[name] ?? MAX_OTHER))
      return fail('invalid_request', `parameter ${name} is too long`);
    v[name] = value;
  }
  if (v.response_type === undefined)
    return fail('invalid_request', 'response_type is required');
  if (v.response_type !== 'code')
    return fail(
      'unsupported_response_type',
      'only response_type=code is supported',
    );
  if (v.response_mode !== undefined && v.response_mode !== 'query')
    return fail('invalid_request', 'only response_mode=query is supported');
  if (!client.grantTypes.includes('authorization_code'))
    return fail(
      'unauthorized_client',
      'this client may not use the authorization code grant',
    );

  if (v.scope === undefined)
    return fail('invalid_request', 'scope is required');
  const asked = splitScope(v.scope);
  const allowed = allowedScopes(client);
  if (
    asked.length === 0 ||
    !asked.every((s) => isValidScopeName(s) && allowed.has(s))
  ) {
    return fail(
      'invalid_scope',
      'the requested scope is not allowed for this client',
    );
  }
  const claims =
    v.claims === undefined ? undefined : readClaimsRequest(v.claims);
  if (v.claims !== undefined && claims === undefined)
    return fail('invalid_request', 'claims is not a valid claims request');
  // A claim asked for by name is consented to, and released, with its scope.
  const wanted = [...new Set([...asked, ...(claims?.scopes ?? [])])];
  const scopes = client.grantTypes.includes('refresh_token')
    ? wanted
    : wanted.filter((s) => s !== 'offline_access');

  const method = v.code_challenge_method;
  const challenge = v.code_challenge;
  if (method !== undefined && method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256');
  if (challenge === undefined) {
    if (client.clientType === 'public')
      return fail(
        'invalid_request',
        'PKCE (code_challenge with S256) is required for public clients',
      );
    if (method !== undefined)
      return fail('invalid_request', 'code_challenge is missing');
  } else {
    if (method === undefined)
      return fail('invalid_request', 'code_challenge_method must be S256');
    if (!S256_CHALLENGE.test(challenge))
      return fail('invalid_request', 'code_challenge is not a S256 challenge');
  }

  const prompt =
    v.prompt === undefined ? [] : splitScope(v.prompt.replace(/\+/g, ' '));
  if (!prompt.every((p) => (PROMPTS as readonly string[]).includes(p)))
    return fail('invalid_request', 'unsupported prompt value');
  if (prompt.includes('none') && prompt.length > 1)
    return fail(
      'invalid_request',
      'prompt=none cannot be combined with other values',
    );

  let maxAge: number | undefined;
  if (v.max_age !== undefined) {
    if (!/^\d{1,10}$/.test(v.max_age))
      return fail('invalid_request', 'max_age must be a non-negative integer');
    maxAge = Number(v.max_age);
  }

  const request: AuthorizationRequest = {
    clientId: client.clientId,
    redirectUri: redirect.uri,
    redirectUriGiven: redirect.given,
    scopes,
    prompt: prompt as Prompt[],
  };
  if (v.state !== undefined) request.state = v.state;
  if (v.nonce !== undefined) request.nonce = v.nonce;
  if (challenge !== undefined) request.codeChallenge = challenge;
  if (maxAge !== undefined) request.maxAge = maxAge;
  if (v.login_hint !== undefined) request.loginHint = v.login_hint;
  if (claims?.essentialAcr !== undefined)
    request.essentialAcr = claims.essentialAcr;
  return { ok: true, request };
}

/** Whether the scopes already granted cover this request, so no consent page is needed. */
export function consentCovers(
  granted: readonly string[] | undefined,
  request: AuthorizationRequest,
): boolean {
  if (!granted) return false;
  if (
    request.prompt.includes('consent') ||
    request.prompt.includes('select_account')
  )
    return false;
  return request.scopes.every((s) => granted.includes(s));
}

/** `uri` plus query parameters, after `&` when it already has a query (RFC 6749 §3.1.2). */
export function withQuery(
  uri: string,
  params: Record<string, string | undefined>,
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined) q.append(k, v);
  const text = q.toString();
  if (text === '') return uri;
  return uri + (uri.includes('?') ? '&' : '?') + text;
}
