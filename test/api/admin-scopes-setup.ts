import { expect } from 'vitest';
import {
  createTestApp,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { postForm } from '../helpers/oidc-client.js';

/** What the admin scope files share: a game application allowed client_credentials, and its requests. */
export const ISSUER = 'https://id.example.com';
export const CB = 'https://game.example.com/cb';
const A = '/api/v1/auth';
export const SCOPES = `${A}/admin/apps/admin_scopes`;
export const TOKEN_REFUSED = [401, refusal('令牌无效或已过期')];
/** A live application token where its scopes do not reach (CONTRACT §0, RFC 6750 §3.1). */
export const OUT_OF_SCOPE = [403, refusal('该令牌无权访问此接口')];

export async function startGameApp() {
  const t = await createTestApp({ BASE_URL: ISSUER });
  const owner = await t.register();
  const game = await createApp(t, owner, {
    redirect_uris: [CB],
    grant_types: ['authorization_code', 'client_credentials'],
    scopes: ['stats.read'],
  });
  return { t, owner, game };
}

/** Requests against the app, administrator and game `current()` returns. */
export function gameRequests(
  current: () => { t: TestApp; admin: TestUser; game: CreatedApp },
) {
  const grant = (scopes: string[], clientId = current().game.client_id) =>
    current().t.post(
      SCOPES,
      { client_id: clientId, scopes },
      current().admin.token,
    );
  const tokenRequest = (scope?: string) =>
    postForm(
      current().t,
      '/oauth/token',
      {
        grant_type: 'client_credentials',
        ...(scope !== undefined && { scope }),
      },
      { basic: [current().game.client_id, current().game.client_secret!] },
    );
  async function appToken(scope: string): Promise<string> {
    const res = await tokenRequest(scope);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().scope).toBe(scope);
    return res.json().access_token as string;
  }
  const banBy = (token: string, username: string, banned = true) =>
    current().t.post(
      `${A}/admin/users/ban`,
      { username, banned, reason: 'caught cheating' },
      token,
    );
  return { grant, tokenRequest, appToken, banBy };
}
