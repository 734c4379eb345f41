import type { FastifyRequest } from 'fastify';
import { badParam, fail } from '../../errors/index.js';
import { responses } from '../../platform/http/contract.js';
import {
  authOf,
  callerOf,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { MinecraftServices } from './minecraft-services.js';
import type { UserLookup } from '../accounts/index.js';
import type { AuthGuards } from '../sessions/index.js';
import {
  AdminProfilesQuery,
  AdminProfilesReply,
  ProfileCreateBody,
  ProfileDetailReply,
  ProfileIdBody,
  ProfileIdParams,
  ProfileListReply,
  ProfileModelBody,
  ProfileRenameBody,
  ProfileReply,
  TextureDeleteBody,
  TextureUploadParams,
  TextureUploadQuery,
} from './contract.js';
import { EmptyReply } from '../../platform/http/contract.js';
import {
  isSkinModel,
  isTextureKind,
  TEXTURE_MAX_BYTES,
} from './profile-rules.js';
import type { ProfileActor } from './profile-service.js';

const A = '/api/v1/auth/account/minecraft/profiles';
const ADMIN = '/api/v1/auth/admin/minecraft/profiles';

const actorOf = (request: FastifyRequest, admin = false): ProfileActor => ({
  user: authOf(request).user,
  admin,
  caller: callerOf(request),
});

function modelOf(raw: string | undefined) {
  if (raw === undefined || raw === '') return undefined;
  if (!isSkinModel(raw)) throw badParam('model');
  return raw;
}

/** What the routes below are given. */
export interface MinecraftAccountRouteDeps {
  services: { minecraft: MinecraftServices; users: UserLookup };
  guards: Pick<AuthGuards, 'admin' | 'firstParty'>;
}

/** The signed-in person's Minecraft profiles and textures, and any profile for administrators (docs/api.md §18.2). */
export async function minecraftAccountRoutes(
  app: ContractApp,
  { services, guards }: MinecraftAccountRouteDeps,
) {
  const { minecraft } = services;
  if (!minecraft.enabled) return;
  const { profiles } = minecraft;
  const tags = ['account'];
  const ok = <T>(data: T) => ({ ok: true as const, data });

  app.get(
    A,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'My Minecraft profiles',
        response: responses(ProfileListReply),
      },
    },
    async (request) =>
      ok({ profiles: await profiles.list(authOf(request).user) }),
  );

  app.post(
    A,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Create a profile (name unique ignoring case)',
        body: ProfileCreateBody,
        response: responses(ProfileReply),
      },
    },
    async (request) =>
      ok(
        await profiles.create(
          authOf(request).user,
          request.body.name,
          callerOf(request),
        ),
      ),
  );

  app.post(
    `${A}/rename`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Rename a profile (the old name is free again)',
        body: ProfileRenameBody,
        response: responses(ProfileReply),
      },
    },
    async (request) =>
      ok(
        await profiles.rename(
          actorOf(request),
          request.body.id,
          request.body.name,
        ),
      ),
  );

  app.post(
    `${A}/delete`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Delete a profile',
        body: ProfileIdBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await profiles.remove(actorOf(request), request.body.id);
      return ok({});
    },
  );

  app.get(
    `${A}/:id`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'A profile with its skin and cape',
        params: ProfileIdParams,
        response: responses(ProfileDetailReply),
      },
    },
    async (request) =>
      ok(await profiles.get(actorOf(request), request.params.id)),
  );

  app.post(
    `${A}/model`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Choose the skin model (default or slim)',
        body: ProfileModelBody,
        response: responses(ProfileDetailReply),
      },
    },
    async (request) => {
      const model = modelOf(request.body.model);
      if (!model) throw badParam('model');
      return ok(
        await profiles.setModel(actorOf(request), request.body.id, model),
      );
    },
  );

  app.post(
    `${A}/textures/delete`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Remove the skin or the cape',
        body: TextureDeleteBody,
        response: responses(ProfileDetailReply),
      },
    },
    async (request) => {
      const { id, type } = request.body;
      if (!isTextureKind(type)) throw fail('badTexture');
      return ok(await profiles.removeTexture(actorOf(request), id, type));
    },
  );

  // The PNG is the request body itself (Content-Type: image/png), at most 64 KiB.
  await app.register(async (scope) => {
    const upload = scope as unknown as ContractApp;
    upload.addContentTypeParser(
      'image/png',
      { parseAs: 'buffer', bodyLimit: TEXTURE_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    upload.post(
      `${A}/:id/textures/:type`,
      {
        preHandler: guards.firstParty,
        bodyLimit: TEXTURE_MAX_BYTES,
        schema: {
          tags,
          summary:
            'Upload a skin (64×32 or 64×64, ?model=slim) or cape (64×32 or 22×17) PNG',
          params: TextureUploadParams,
          querystring: TextureUploadQuery,
          response: responses(ProfileDetailReply),
        },
      },
      async (request) => {
        const { id, type } = request.params;
        if (!isTextureKind(type) || !Buffer.isBuffer(request.body))
          throw fail('badTexture');
        return ok(
          await profiles.upload(
            actorOf(request),
            id,
            type,
            request.body,
            modelOf(request.query.model),
          ),
        );
      },
    );
  });

  const adminTags = ['admin'];
  app.get(
    ADMIN,
    {
      preHandler: guards.admin,
      schema: {
        tags: adminTags,
        summary: "A user's Minecraft profiles",
        querystring: AdminProfilesQuery,
        response: responses(AdminProfilesReply),
      },
    },
    async (request) =>
      ok({
        profiles: await profiles.listDetailed(
          (await services.users.userNamed(request.query.username)).id,
        ),
      }),
  );

  app.post(
    `${ADMIN}/rename`,
    {
      preHandler: guards.admin,
      schema: {
        tags: adminTags,
        summary: 'Rename any profile',
        body: ProfileRenameBody,
        response: responses(ProfileReply),
      },
    },
    async (request) =>
      ok(
        await profiles.rename(
          actorOf(request, true),
          request.body.id,
          request.body.name,
        ),
      ),
  );

  app.post(
    `${ADMIN}/delete`,
    {
      preHandler: guards.admin,
      schema: {
        tags: adminTags,
        summary: 'Delete any profile',
        body: ProfileIdBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await profiles.remove(actorOf(request, true), request.body.id);
      return ok({});
    },
  );
}
