import type { FastifyError } from 'fastify';
import { toFailure } from '../../platform/http/error-replies.js';
import { callerOf, type ContractApp } from '../../platform/http/typed-scope.js';
import type { RouteDeps } from '../services.js';
import {
  AuthenticateBody,
  HasJoinedQuery,
  JoinBody,
  NamesBody,
  ProfileIdParams,
  ProfileQuery,
  RefreshBody,
  SignoutBody,
  TokenBody,
} from './contract.js';
import { illegalArgument, YggdrasilError } from './yggdrasil-errors.js';
import { textureApiRoutes } from './texture-routes.js';

/** On every response of the site, so a player can paste the site's own address into the launcher. */
export const ALI_HEADER = {
  'x-authlib-injector-api-location': '/api/yggdrasil/',
} as const;

const ROOT = '/api/yggdrasil';
/**
 * A texture never changes under its hash. It is served as an inert image: never sniffed as
 * something else, and a policy under which nothing in it could run or load if opened directly.
 */
const TEXTURE_HEADERS = {
  'content-type': 'image/png',
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
} as const;

/**
 * The Yggdrasil API of authlib-injector's specification (docs/api.md §18) and the texture
 * files. Failures use the protocol's `{ error, errorMessage }`, which launchers show.
 */
export async function minecraftRoutes(
  app: ContractApp,
  { services }: RouteDeps,
) {
  const { minecraft } = services;
  if (!minecraft.enabled) return;
  const { yggdrasil, profiles } = minecraft;
  const tags = ['minecraft'];

  app.get(
    '/textures/:hash',
    { schema: { tags, summary: 'A skin or cape PNG by its texture hash' } },
    async (request, reply) => {
      const file = await profiles.texture(
        (request.params as { hash: string }).hash,
      );
      if (!file) return reply.code(404).send({ ok: false, msg: '材质不存在' });
      return reply.headers(TEXTURE_HEADERS).send(file);
    },
  );

  await app.register(
    async (scope) => {
      const api = scope as unknown as ContractApp;
      api.setErrorHandler((err, request, reply) => {
        if (err instanceof YggdrasilError) {
          if (err.retryAfterS !== undefined)
            void reply.header('retry-after', String(err.retryAfterS));
          return reply.code(err.status).send(err.body);
        }
        const { status } = toFailure(err as FastifyError);
        if (status >= 500) {
          request.log.error({ err }, 'request failed');
          return reply.code(500).send({
            error: 'Internal Server Error',
            errorMessage: 'Internal Server Error',
          });
        }
        const e = (err as FastifyError).validation
          ? illegalArgument('Invalid request.')
          : new YggdrasilError(
              status,
              'IllegalArgumentException',
              (err as Error).message,
            );
        return reply.code(e.status).send(e.body);
      });

      api.get(
        '/',
        {
          schema: {
            tags,
            summary:
              'Metadata: server name, links, skin domains, the public key of property signatures',
          },
        },
        async () => minecraft.metadata(),
      );

      api.post(
        '/authserver/authenticate',
        {
          schema: {
            tags,
            summary:
              'Sign in with username, e-mail or profile name, and password or game token',
            body: AuthenticateBody,
          },
        },
        async (request) =>
          yggdrasil.authenticate(request.body, callerOf(request)),
      );

      api.post(
        '/authserver/refresh',
        {
          schema: {
            tags,
            summary:
              'A new access token for a live one (which dies), optionally picking a profile',
            body: RefreshBody,
          },
        },
        async (request) => yggdrasil.refresh(request.body),
      );

      api.post(
        '/authserver/validate',
        {
          schema: {
            tags,
            summary: '204 when the access token is usable',
            body: TokenBody,
          },
        },
        async (request, reply) => {
          await yggdrasil.validate(
            request.body.accessToken,
            request.body.clientToken,
          );
          return reply.code(204).send();
        },
      );

      api.post(
        '/authserver/invalidate',
        {
          schema: {
            tags,
            summary: 'Revoke one access token (always 204)',
            body: TokenBody,
          },
        },
        async (request, reply) => {
          await yggdrasil.invalidate(request.body.accessToken);
          return reply.code(204).send();
        },
      );

      api.post(
        '/authserver/signout',
        {
          schema: {
            tags,
            summary: 'Revoke every access token of the account',
            body: SignoutBody,
          },
        },
        async (request, reply) => {
          await yggdrasil.signout(
            request.body.username,
            request.body.password,
            callerOf(request),
          );
          return reply.code(204).send();
        },
      );

      api.post(
        '/sessionserver/session/minecraft/join',
        {
          schema: {
            tags,
            summary: 'The client announces it joins a server',
            body: JoinBody,
          },
        },
        async (request, reply) => {
          const { accessToken, selectedProfile, serverId } = request.body;
          await yggdrasil.join(
            accessToken,
            selectedProfile,
            serverId,
            callerOf(request),
          );
          return reply.code(204).send();
        },
      );

      api.get(
        '/sessionserver/session/minecraft/hasJoined',
        {
          schema: {
            tags,
            summary:
              'The game server checks a join: the signed profile, or 204',
            querystring: HasJoinedQuery,
          },
        },
        async (request, reply) => {
          const { username, serverId, ip } = request.query;
          const profile = await yggdrasil.hasJoined(username, serverId, ip);
          return profile ? profile : reply.code(204).send();
        },
      );

      api.get(
        '/sessionserver/session/minecraft/profile/:id',
        {
          schema: {
            tags,
            summary:
              'A profile with its textures (signed with ?unsigned=false)',
            params: ProfileIdParams,
            querystring: ProfileQuery,
          },
        },
        async (request, reply) => {
          const profile = await yggdrasil.profile(
            request.params.id,
            request.query.unsigned,
          );
          return profile ? profile : reply.code(204).send();
        },
      );

      api.post(
        '/api/profiles/minecraft',
        {
          schema: {
            tags,
            summary: 'Profiles by name (at most 10 names)',
            body: NamesBody,
          },
        },
        async (request) => yggdrasil.profilesNamed(request.body),
      );

      await textureApiRoutes(api, minecraft);
    },
    { prefix: ROOT },
  );
}
