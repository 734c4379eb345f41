import type { OAuthErrorBody } from './contract.js';

/**
 * The errors of the standard endpoints: RFC 6749 §5.2 `{ error, error_description }`,
 * never the v1 API's `{ ok, msg }`. `headers` carries WWW-Authenticate where the RFCs ask for it.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
    /**
     * Not a failed guess (a device still waiting, a client racing itself, a code or token that
     * was real but is used up or expired): not counted by the throttle.
     */
    readonly benign = false,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }

  body(): OAuthErrorBody {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidRequest = (description: string): OAuthError =>
  new OAuthError('invalid_request', description);
export const invalidGrant = (description: string): OAuthError =>
  new OAuthError('invalid_grant', description);
/**
 * invalid_grant for a real code or refresh token of this client that is used up, expired or
 * whose person may not have it: only its holder gets this far, so the throttle gives the try
 * back, as the v1 exchange does for a replay (docs/api.md §5.6).
 */
export const heldGrant = (description: string): OAuthError =>
  heldRefusal('invalid_grant', description);
/** Any other refusal of a real code of this client (a device code denied or expired), likewise not counted. */
export const heldRefusal = (error: string, description: string): OAuthError =>
  new OAuthError(error, description, 400, {}, true);
/** RFC 6750 §3.1: a missing, malformed, expired or revoked access token. */
export const invalidToken = (
  description = 'The access token is invalid, expired or revoked',
): OAuthError =>
  new OAuthError('invalid_token', description, 401, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description}"`,
  });
