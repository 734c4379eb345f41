import {
  RoleBody,
  RoleListReply,
  RoleMembersQuery,
  RoleMembersReply,
  RoleNameBody,
  RoleReply,
} from './contract.js';
import { EmptyReply, responses } from '../../platform/http/contract.js';
import { callerOf, type ContractApp } from '../../platform/http/typed-scope.js';
import { adminActorOf } from '../sessions/index.js';
import type { AdminRouteDeps } from './routes.js';

const tags = ['admin'];

/** The role catalogue for administrators (docs/api.md, roles). */
export async function roleRoutes(
  app: ContractApp,
  { services, guards }: AdminRouteDeps,
) {
  const catalogue = () => services.admin.catalogue;
  const actorOf = (request: Parameters<typeof adminActorOf>[0]) => ({
    name: adminActorOf(request),
    ip: callerOf(request).ip,
    ...(request.auth && { uid: request.auth.user.id }),
  });

  app.get(
    '/api/v1/auth/admin/roles',
    {
      preHandler: guards.admin,
      schema: {
        tags,
        summary:
          'The role catalogue: player and admin first, then by name, with member counts',
        response: responses(RoleListReply),
      },
    },
    async () => ({
      ok: true as const,
      data: { roles: await catalogue().list() },
    }),
  );

  app.post(
    '/api/v1/auth/admin/roles',
    {
      preHandler: guards.admin,
      schema: {
        tags,
        summary: 'Add a role, or change its display names and description',
        body: RoleBody,
        response: responses(RoleReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: { role: await catalogue().save(request.body, actorOf(request)) },
    }),
  );

  app.post(
    '/api/v1/auth/admin/roles/remove',
    {
      preHandler: guards.admin,
      schema: {
        tags,
        summary:
          'Remove a role from the catalogue and from every holder; never player, admin or a role an app requires',
        body: RoleNameBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await catalogue().remove(request.body.name, actorOf(request));
      return { ok: true as const, data: {} };
    },
  );

  app.get(
    '/api/v1/auth/admin/roles/members',
    {
      preHandler: guards.admin,
      schema: {
        tags,
        summary: 'The first 200 holders of a role, by id',
        querystring: RoleMembersQuery,
        response: responses(RoleMembersReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: { users: await catalogue().members(request.query.name) },
    }),
  );
}
