/**
 * A stand-in for GitHub's OAuth app sign-in, answering as documented:
 * https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * (authorize with state and PKCE; `POST /login/oauth/access_token` answers JSON when asked,
 * and errors with HTTP 200 and `error`), https://docs.github.com/en/rest/users/users#get-the-authenticated-user
 * and https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user.
 * The API refuses requests without a User-Agent, as GitHub's does. Organizations and teams:
 * https://docs.github.com/en/rest/orgs/orgs#list-organizations-for-the-authenticated-user
 * (without `read:org` only public memberships) and
 * https://docs.github.com/en/rest/teams/teams#list-teams-for-the-authenticated-user (needs
 * `read:org`), paged by `per_page` and `page`.
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
  orgs?: Array<{ login: string; public?: boolean }>;
  teams?: Array<{ org: string; slug: string }>;
}

/** A page of a list as GitHub answers it: `per_page` (default 30, at most 100) and `page`. */
function paged<T>(url: URL, all: T[]): T[] {
  const per = Math.min(Number(url.searchParams.get('per_page') ?? 30), 100);
  const page = Number(url.searchParams.get('page') ?? 1);
  return all.slice((page - 1) * per, page * per);
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
    'GET /user/orgs': (req, res) => {
      const t = s.tokens.get((bearerOf(req) ?? '').replace(/^gho_/, ''));
      if (!t) return json(res, 401, { message: 'Bad credentials' });
      const readOrg = t.scope.split(/[ ,]/).includes('read:org');
      const orgs = ((t.person as GithubPerson).orgs ?? []).filter(
        (o) => readOrg || o.public,
      );
      json(
        res,
        200,
        paged(req.url, orgs).map((o, i) => ({
          login: o.login,
          id: 1000 + i,
          url: `https://api.github.com/orgs/${o.login}`,
          description: null,
        })),
      );
    },
    'GET /user/teams': (req, res) => {
      const t = s.tokens.get((bearerOf(req) ?? '').replace(/^gho_/, ''));
      if (!t) return json(res, 401, { message: 'Bad credentials' });
      if (!t.scope.split(/[ ,]/).includes('read:org'))
        return json(res, 403, {
          message: 'Resource not accessible by integration',
        });
      json(
        res,
        200,
        paged(req.url, (t.person as GithubPerson).teams ?? []).map(
          (team, i) => ({
            id: 2000 + i,
            name: team.slug,
            slug: team.slug,
            privacy: 'closed',
            permission: 'pull',
            organization: { login: team.org, id: 1000 },
          }),
        ),
      );
    },
  });
  return s.start();
}
