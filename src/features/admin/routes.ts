import {
  AdminUserReply,
  BanBody,
  RolesBody,
  UserPageReply,
  UserSearchQuery,
} from './contract.js';
import { pageNumber } from '../../platform/http/contract.js';
import { responses } from '../../platform/http/contract.js';
import { callerOf, type ContractApp } from '../../platform/http/typed-scope.js';
import { adminActorOf } from '../sessions/index.js';
import type { AdminService } from './admin-service.js';
import type { AuthGuards } from '../sessions/index.js';

const tags = ['admin'];

/** What the routes below are given. */
export interface AdminRouteDeps {
  services: { admin: AdminService };
  guards: Pick<AuthGuards, 'admin' | 'adminOr'>;
}

/**
 * User administration for role admin (docs/api.md §8), and for applications an administrator
 * granted the matching admin scope (§15.3).
 */
export async function adminRoutes(
  app: ContractApp,
  { services, guards }: AdminRouteDeps,
) {
  app.get(
    '/api/v1/auth/admin/users',
    {
      preHandler: guards.adminOr('admin:users:read'),
      schema: {
        tags,
        summary: 'Search users by username or e-mail, 20 a page',
        querystring: UserSearchQuery,
        response: responses(UserPageReply),
      },
    },
    async (request) => {
      const { q, page } = request.query;
      const found = await services.admin.searchUsers(
        q ?? '',
        pageNumber(page),
        request.adminClient !== undefined,
      );
      await services.admin.recordApplicationRead(
        request.adminClient,
        callerOf(request),
        null,
        { q: q ?? '', page: pageNumber(page) },
      );
      return { ok: true as const, data: found };
    },
  );

  app.post(
    '/api/v1/auth/admin/users/ban',
    {
      preHandler: guards.adminOr('admin:users:ban'),
      schema: {
        tags,
        summary: 'Ban or unban a user',
        body: BanBody,
        response: responses(AdminUserReply),
      },
    },
    async (request) => {
      const { username, banned, reason, until } = request.body;
      return {
        ok: true as const,
        data: await services.admin.setBanned(
          username,
          banned,
          adminActorOf(request),
          callerOf(request),
          { reason, until },
          request.auth?.user.id,
        ),
      };
    },
  );

  app.post(
    '/api/v1/auth/admin/users/roles',
    {
      preHandler: guards.adminOr('admin:users:roles'),
      schema: {
        tags,
        summary: "Replace a user's roles",
        body: RolesBody,
        response: responses(AdminUserReply),
      },
    },
    async (request) => {
      const { username, roles } = request.body;
      return {
        ok: true as const,
        data: await services.admin.setRoles(
          username,
          roles,
          adminActorOf(request),
          callerOf(request),
          request.auth?.user.id,
        ),
      };
    },
  );
}
