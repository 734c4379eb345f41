import { AdminUserReply, BanBody, pageNumber, RolesBody, UserPageReply, UserSearchQuery } from './contract.js';
import { responses } from '../../platform/http/contract.js';
import { authOf, callerOf, type ContractApp } from '../../platform/http/typed-scope.js';
import type { RouteDeps } from '../services.js';

const tags = ['admin'];

/** User administration for role admin (docs/api.md §8). */
export async function adminRoutes(app: ContractApp, { services, guards }: RouteDeps) {
  app.get('/api/v1/auth/admin/users', {
    preHandler: guards.admin,
    schema: { tags, summary: 'Search users by username or e-mail, 20 a page', querystring: UserSearchQuery, response: responses(UserPageReply) },
  }, async (request) => {
    const { q, page } = request.query;
    return { ok: true as const, data: await services.admin.searchUsers(q ?? '', pageNumber(page)) };
  });

  app.post('/api/v1/auth/admin/users/ban', {
    preHandler: guards.admin,
    schema: { tags, summary: 'Ban or unban a user', body: BanBody, response: responses(AdminUserReply) },
  }, async (request) => {
    const { username, banned, reason, until } = request.body;
    return { ok: true as const, data: await services.admin.setBanned(username, banned, authOf(request).user.username, callerOf(request), { reason, until }) };
  });

  app.post('/api/v1/auth/admin/users/roles', {
    preHandler: guards.admin,
    schema: { tags, summary: "Replace a user's roles", body: RolesBody, response: responses(AdminUserReply) },
  }, async (request) => {
    const { username, roles } = request.body;
    return { ok: true as const, data: await services.admin.setRoles(username, roles, authOf(request).user.username, callerOf(request)) };
  });
}
