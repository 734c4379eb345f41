import { createHash, randomBytes } from 'node:crypto';
import type { TestApp, TestUser } from './app.js';

export interface CreatedApp {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  [key: string]: unknown;
}

/** Registers an app through the API as `owner`; throws unless it answers 200. */
export async function createApp(
  t: TestApp,
  owner: TestUser,
  fields: Record<string, unknown> = {},
): Promise<CreatedApp> {
  const res = await t.post(
    '/api/v1/auth/apps',
    {
      display_name: 'Demo App',
      redirect_uris: ['https://good.example.com/cb'],
      ...fields,
    },
    owner.token,
  );
  if (res.statusCode !== 200)
    throw new Error(`create app failed: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return {
    verifier,
    challenge: createHash('sha256').update(verifier).digest('base64url'),
  };
}

/** POST /authorize as `user`; returns the code (throws unless 200). */
export async function authorizeCode(
  t: TestApp,
  user: TestUser,
  payload: Record<string, unknown>,
): Promise<string> {
  const res = await t.post('/api/v1/auth/authorize', payload, user.token);
  if (res.statusCode !== 200)
    throw new Error(`authorize failed: ${res.statusCode} ${res.body}`);
  return res.json().data.code;
}

/** The keys of an app view: docs/api.md §4, the client fields of §12.2 and the required roles of §19.3. */
export const APP_VIEW_KEYS = [
  'client_id',
  'cors_origins',
  'created_at',
  'display_name',
  'has_secret',
  'homepage',
  'redirect_uris',
  'scopes',
  'status',
  'updated_at',
  'client_type',
  'grant_types',
  'token_endpoint_auth_method',
  'post_logout_redirect_uris',
  'backchannel_logout_uri',
  'backchannel_logout_session_required',
  // Roles any one of which admits a person (docs/api.md §19.3).
  'required_roles',
].sort();
