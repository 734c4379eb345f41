import * as oauth from 'oauth4webapi';
import type { TestApp, TestUser } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import { postForm, signInWithCode } from '../helpers/oidc-client.js';

/** What the refresh and revocation files share: the relying party's side of its tokens' life. */
export const ISSUER = 'https://id.example.com';
export const CB = 'https://rp.example.com/cb';

export const auth = (c: CreatedApp) =>
  oauth.ClientSecretBasic(c.client_secret!);
export const cred = (c: CreatedApp) => ({
  basic: [c.client_id, c.client_secret!] as [string, string],
});

/** Sign-in, refresh, introspection and userinfo against the app and default client `current()` returns. */
export function tokenLife(
  current: () => {
    t: TestApp;
    as: oauth.AuthorizationServer;
    rp: CreatedApp;
  },
) {
  const signIn = (
    user: TestUser,
    client = current().rp,
    scope = 'openid profile email',
  ) => signInWithCode(current().t, current().as, user, client, CB, scope);

  const refresh = (
    token: string,
    client = current().rp,
    extra: Record<string, string> = {},
  ) =>
    postForm(
      current().t,
      '/oauth/token',
      { grant_type: 'refresh_token', refresh_token: token, ...extra },
      cred(client),
    );
  /** Introspection by the client the token was issued to (only it learns anything, RFC 7662 §4). */
  const introspect = async (token: string, client = current().rp) => {
    const post = client.token_endpoint_auth_method === 'client_secret_post';
    const form: Record<string, string> = post
      ? {
          token,
          client_id: client.client_id,
          client_secret: client.client_secret!,
        }
      : { token };
    return (
      await postForm(
        current().t,
        '/oauth/introspect',
        form,
        post ? {} : cred(client),
      )
    ).json();
  };
  const userinfo = (token: string) => current().t.get('/oauth/userinfo', token);

  return { signIn, refresh, introspect, userinfo };
}
