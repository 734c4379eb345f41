import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors/index.js';
import { callerOf, type ContractApp } from '../../platform/http/typed-scope.js';
import type { MinecraftServices } from './minecraft-services.js';
import {
  isSkinModel,
  isTextureKind,
  TEXTURE_MAX_BYTES,
} from './profile-rules.js';
import { TextureUploadParams } from './contract.js';
import {
  forbidden,
  illegalArgument,
  YggdrasilError,
} from './yggdrasil-errors.js';

/** Room for the multipart envelope around a texture of the largest size. */
const MULTIPART_LIMIT = TEXTURE_MAX_BYTES + 8 * 1024;
const BEARER = /^bearer +(\S+)$/i;

/** The upload limit in the protocol's format; the route adds Retry-After. */
const tooManyUploads = (retryAfterS: number | undefined) =>
  new YggdrasilError(
    429,
    'ForbiddenOperationException',
    'Too many uploads. Try again later.',
    retryAfterS,
  );
const unauthorized = () =>
  new YggdrasilError(
    401,
    'Unauthorized',
    'The request requires user authentication.',
  );

/**
 * The specification's texture endpoints under the API root: `PUT` (multipart: `model`,
 * `file`) and `DELETE` `api/user/profile/{uuid}/{skin|cape}` with the launcher's access
 * token as Bearer (docs/api.md §18.2). The same checks as the account page's upload.
 */
export async function textureApiRoutes(
  api: ContractApp,
  minecraft: MinecraftServices,
): Promise<void> {
  const { profiles, yggdrasil } = minecraft;
  // The multipart body is read by the runtime's own form-data parser (undici's Response.formData).
  api.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MULTIPART_LIMIT },
    (_request, body, done) => done(null, body),
  );

  async function actorOf(request: FastifyRequest) {
    const m = BEARER.exec(request.headers.authorization ?? '');
    const user = m ? await yggdrasil.holderOf(m[1]!) : undefined;
    if (!user) throw unauthorized();
    return { user, admin: false, caller: callerOf(request) };
  }

  /** The profile service's refusals in the protocol's words. */
  const translated = (err: unknown): never => {
    if (err instanceof AppError) {
      if (err.reason === 'unknownMinecraftProfile')
        throw forbidden('The profile does not belong to you.');
      if (err.reason === 'rateLimited') throw tooManyUploads(err.retryAfterS);
      throw illegalArgument(err.msg);
    }
    throw err;
  };

  const path = '/api/user/profile/:id/:type';
  const schema = { tags: ['minecraft'], params: TextureUploadParams };

  api.put(
    path,
    {
      bodyLimit: MULTIPART_LIMIT,
      schema: {
        ...schema,
        summary:
          'Upload a skin or cape (multipart: model, file) with a launcher access token',
      },
    },
    async (request, reply) => {
      const actor = await actorOf(request);
      const { id, type } = request.params;
      if (!isTextureKind(type)) throw illegalArgument('Unknown texture type.');
      const contentType = request.headers['content-type'] ?? '';
      if (
        !Buffer.isBuffer(request.body) ||
        !contentType.startsWith('multipart/form-data')
      )
        throw illegalArgument('A multipart/form-data body is required.');
      const form = await new Response(request.body, {
        headers: { 'content-type': contentType },
      })
        .formData()
        .catch(() => {
          throw illegalArgument('Malformed multipart body.');
        });
      const file = form.get('file');
      const model = form.get('model') ?? '';
      if (!(file instanceof Blob))
        throw illegalArgument('The file part is missing.');
      if (type === 'skin' && model !== '' && !isSkinModel(model))
        throw illegalArgument('Unknown model.');
      const chosen = model === 'slim' ? 'slim' : 'default';
      await profiles
        .upload(
          actor,
          id,
          type,
          Buffer.from(await file.arrayBuffer()),
          type === 'skin' ? chosen : undefined,
        )
        .catch(translated);
      return reply.code(204).send();
    },
  );

  api.delete(
    path,
    {
      schema: {
        ...schema,
        summary: 'Take off the skin or cape with a launcher access token',
      },
    },
    async (request, reply) => {
      const actor = await actorOf(request);
      const { id, type } = request.params;
      if (!isTextureKind(type)) throw illegalArgument('Unknown texture type.');
      await profiles.removeTexture(actor, id, type).catch(translated);
      return reply.code(204).send();
    },
  );
}
