import type { FastifyRequest } from 'fastify';
import type { AppActor } from './app-service.js';
import {
  AppListReply,
  AppReply,
  AppSecretReply,
  AppStatusReply,
  ClientIdBody,
  CreateAppBody,
  CreatedAppReply,
  DisableAppBody,
  UpdateAppBody,
} from './contract.js';
import { responses } from '../../platform/http/contract.js';
import {
  authOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { AppService } from './app-service.js';
import type { Guard } from '../../platform/http/typed-scope.js';

const tags = ['apps'];

function actorOf(request: FastifyRequest): AppActor {
  return { user: authOf(request).user, ip: request.ip };
}

/** What the routes below are given. */
export interface AppRouteDeps {
  services: { apps: AppService };
  guards: { firstParty: Guard };
}

/** Application self-management for developers (docs/api.md §4); first-party tokens only. */
export async function appsRoutes(
  app: ContractApp,
  { services, guards }: AppRouteDeps,
) {
  const { apps } = services;

  app.get(
    '/api/v1/auth/apps',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: "The caller's own applications (secrets omitted)",
        response: responses(AppListReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: { apps: await apps.list(authOf(request).user) },
    }),
  );

  app.post(
    '/api/v1/auth/apps',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Register an application; a confidential client gets its secret in this response only',
        body: CreateAppBody,
        response: responses(CreatedAppReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return {
        ok: true as const,
        data: await apps.create(actorOf(request), request.body),
      };
    },
  );

  app.post(
    '/api/v1/auth/apps/update',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Change profile data and whitelists',
        body: UpdateAppBody,
        response: responses(AppReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await apps.update(actorOf(request), request.body),
    }),
  );

  app.post(
    '/api/v1/auth/apps/rotate_secret',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Issue a new secret; the old one fails at once',
        body: ClientIdBody,
        response: responses(AppSecretReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return {
        ok: true as const,
        data: await apps.rotateSecret(actorOf(request), request.body.client_id),
      };
    },
  );

  app.post(
    '/api/v1/auth/apps/disable',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Enable or disable; without `enabled` it toggles',
        body: DisableAppBody,
        response: responses(AppStatusReply),
      },
    },
    async (request) => {
      const { client_id, enabled } = request.body;
      return {
        ok: true as const,
        data: await apps.setEnabled(actorOf(request), client_id, enabled),
      };
    },
  );
}
