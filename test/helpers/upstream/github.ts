/**
 * A stand-in for GitHub's OAuth app sign-in, answering as documented:
 * https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * (authorize with state and PKCE; `POST /login/oauth/access_token` answers JSON when asked,
 * and errors with HTTP 200 and `error`), https://docs.github.com/en/rest/users/users#get-the-authenticated-user
 * and https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user.
 * The API refuses requests without a User-Agent, as GitHub's does.
 */
import {
  bearerOf,
  json,
  redirect,
  s256,
  StandIn,
  withQuery,
  type Person,
} from './stand-in.js';

export interface GithubPerson extends Person {
  login: string;
  name?: string | null;
  emails?: Array<{ email: string; primary: boolean; verified: boolean }>;
}

export const GITHUB_CLIENT = {
  id: 'Iv1.standin0001',
  secret: 'github-standin-secret-0123456789abcdef0123',
};

/** The provider fields of a `github` provider pointed at the stand-in `github`. */
export function githubProvider(
  github: { base: string },
  id = 'github',
  name = 'GitHub',
) {
  return {
    id,
    type: 'github',
    name,
    client_id: GITHUB_CLIENT.id,
    client_secret: GITHUB_CLIENT.secret,
    authorization_endpoint: `${github.base}/login/oauth/authorize`,
    token_endpoint: `${github.base}/login/oauth/access_token`,
    api_base: github.base,
  };
}

export async function startGithub(): Promise<StandIn> {
  const s: StandIn = new StandIn({
    'GET /login/oauth/authorize': (req, res) => {
      const q = req.url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== GITHUB_CLIENT.id)
        return json(res, 404, { message: 'Not Found' });
      if (s.declines)
        return redirect(
          res,
          withQuery(redirectUri, {
            error: 'access_denied',
            error_description: 'The user has denied your application access.',
            state: q.get('state') ?? undefined,
          }),
        );
      const code = s.issueCode(
        GITHUB_CLIENT.id,
        redirectUri,
        q.get('scope') ?? '',
        q.get('code_challenge') ?? undefined,
      );
      redirect(
        res,
        withQuery(redirectUri, { code, state: q.get('state') ?? undefined }),
      );
    },
    'POST /login/oauth/access_token': (req, res) => {
      const f = req.form;
      const issued = s.takeCode(f.get('code'));
      const refuse = (error: string) =>
        json(res, 200, {
          error,
          error_description: error.replace(/_/g, ' '),
          error_uri:
            'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors',
        });
      if (
        f.get('client_id') !== GITHUB_CLIENT.id ||
        f.get('client_secret') !== GITHUB_CLIENT.secret
      )
        return refuse('incorrect_client_credentials');
      if (!issued) return refuse('bad_verification_code');
      if (f.get('redirect_uri') !== issued.redirectUri)
        return refuse('redirect_uri_mismatch');
      if (
        issued.challenge &&
        s256(f.get('code_verifier') ?? '') !== issued.challenge
      )
        return refuse('bad_verification_code');
      json(res, 200, {
        access_token: `gho_${s.issueToken(issued.person, issued.scope)}`,
        token_type: 'bearer',
        scope: issued.scope.replace(/ /g, ','),
      });
    },
    'GET /user': (req, res) => {
      if (!req.headers['user-agent'])
        return json(res, 403, {
          message:
            'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
        });
      const t = s.tokens.get((bearerOf(req) ?? '').replace(/^gho_/, ''));
      if (!t) return json(res, 401, { message: 'Bad credentials' });
      const p = t.person as GithubPerson;
      json(res, 200, {
        login: p.login,
        id: Number(p.id),
        node_id: 'MDQ6VXNlcjE=',
        avatar_url: `https://avatars.githubusercontent.com/u/${p.id}?v=4`,
        type: 'User',
        name: p.name ?? null,
        email: null,
      });
    },
    'GET /user/emails': (req, res) => {
      if (!req.headers['user-agent'])
        return json(res, 403, {
          message:
            'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
        });
      const t = s.tokens.get((bearerOf(req) ?? '').replace(/^gho_/, ''));
      if (!t) return json(res, 401, { message: 'Bad credentials' });
      if (!t.scope.split(/[ ,]/).includes('user:email'))
        return json(res, 404, { message: 'Not Found' });
      json(
        res,
        200,
        ((t.person as GithubPerson).emails ?? []).map((e) => ({
          ...e,
          visibility: e.primary ? 'private' : null,
        })),
      );
    },
  });
  return s.start();
}
