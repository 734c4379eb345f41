/**
 * A stand-in for Discord's OAuth2, answering as documented:
 * https://discord.com/developers/docs/topics/oauth2 (authorization code grant, `POST
 * /api/oauth2/token` with the client credentials in the form or Basic),
 * https://discord.com/developers/docs/resources/user#get-current-user (`email` and `verified`
 * only with the `email` scope), #get-current-user-guilds (`guilds` scope) and
 * #get-current-user-guild-member (`guilds.members.read` scope: the member object with its
 * `roles`; 404 `Unknown Guild` for a server the person is not in).
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

export interface DiscordPerson extends Person {
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  email?: string | null;
  verified?: boolean;
  guilds?: string[];
  /** Server id → the person's role ids there (a member of each). */
  members?: Record<string, string[]>;
}

/** The stand-in, with a switch making the member endpoint fail. */
export interface DiscordStandIn extends StandIn {
  /** An HTTP status the member endpoint answers with instead, or 'bad-json'. */
  memberFailure?: number | 'bad-json';
}

export const DISCORD_CLIENT = {
  id: '1100000000000000001',
  secret: 'discord-standin-secret-0123456789abcdef',
};

export async function startDiscord(): Promise<DiscordStandIn> {
  const s: DiscordStandIn = new StandIn({
    'GET /oauth2/authorize': (req, res) => {
      const q = req.url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (
        q.get('client_id') !== DISCORD_CLIENT.id ||
        q.get('response_type') !== 'code'
      )
        return json(res, 400, { message: 'Invalid OAuth2 request' });
      if (s.declines)
        return redirect(
          res,
          withQuery(redirectUri, {
            error: 'access_denied',
            error_description:
              'The resource owner or authorization server denied the request',
            state: q.get('state') ?? undefined,
          }),
        );
      const code = s.issueCode(
        DISCORD_CLIENT.id,
        redirectUri,
        q.get('scope') ?? '',
        q.get('code_challenge') ?? undefined,
      );
      redirect(
        res,
        withQuery(redirectUri, { code, state: q.get('state') ?? undefined }),
      );
    },
    'POST /api/oauth2/token': (req, res) => {
      const f = req.form;
      const basic = /^basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const [id, secret] = basic
        ? Buffer.from(basic, 'base64')
            .toString()
            .split(':')
            .map(decodeURIComponent)
        : [f.get('client_id'), f.get('client_secret')];
      if (id !== DISCORD_CLIENT.id || secret !== DISCORD_CLIENT.secret)
        return json(res, 401, { error: 'invalid_client' });
      if (f.get('grant_type') !== 'authorization_code')
        return json(res, 400, { error: 'unsupported_grant_type' });
      const issued = s.takeCode(f.get('code'));
      if (!issued || issued.redirectUri !== f.get('redirect_uri'))
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'Invalid "code" in request.',
        });
      if (
        issued.challenge &&
        s256(f.get('code_verifier') ?? '') !== issued.challenge
      )
        return json(res, 400, {
          error: 'invalid_grant',
          error_description: 'Invalid "code_verifier"',
        });
      json(res, 200, {
        token_type: 'Bearer',
        access_token: s.issueToken(issued.person, issued.scope),
        expires_in: 604800,
        refresh_token: 'refresh-not-used',
        scope: issued.scope,
      });
    },
    'GET /api/users/@me': (req, res) => {
      const t = s.tokens.get(bearerOf(req) ?? '');
      if (!t) return json(res, 401, { message: '401: Unauthorized', code: 0 });
      const p = t.person as DiscordPerson;
      const withEmail = t.scope.split(' ').includes('email');
      json(res, 200, {
        id: p.id,
        username: p.username,
        discriminator: '0',
        global_name: p.global_name ?? null,
        avatar: p.avatar ?? null,
        ...(withEmail && {
          email: p.email ?? null,
          verified: p.verified ?? false,
        }),
      });
    },
    'GET /api/users/@me/guilds': (req, res) => {
      const t = s.tokens.get(bearerOf(req) ?? '');
      if (!t) return json(res, 401, { message: '401: Unauthorized', code: 0 });
      if (!t.scope.split(' ').includes('guilds'))
        return json(res, 403, { message: 'Missing Access', code: 50001 });
      json(
        res,
        200,
        ((t.person as DiscordPerson).guilds ?? []).map((id) => ({
          id,
          name: `Server ${id}`,
          icon: null,
          owner: false,
          permissions: '0',
          features: [],
        })),
      );
    },
    'GET /api/users/@me/guilds/{guild}/member': (req, res) => {
      const t = s.tokens.get(bearerOf(req) ?? '');
      if (!t) return json(res, 401, { message: '401: Unauthorized', code: 0 });
      if (!t.scope.split(' ').includes('guilds.members.read'))
        return json(res, 403, { message: 'Missing Access', code: 50001 });
      if (s.memberFailure === 'bad-json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"roles": [');
        return;
      }
      if (s.memberFailure)
        return json(res, s.memberFailure, { message: 'Internal Server Error' });
      const guild = req.url.pathname.split('/')[5] ?? '';
      const roles = (t.person as DiscordPerson).members?.[guild];
      if (!roles)
        return json(res, 404, { message: 'Unknown Guild', code: 10004 });
      json(res, 200, {
        user: {
          id: t.person.id,
          username: (t.person as DiscordPerson).username,
        },
        nick: null,
        avatar: null,
        roles,
        joined_at: '2024-01-01T00:00:00.000000+00:00',
        deaf: false,
        mute: false,
        flags: 0,
      });
    },
  });
  return s.start();
}
