import type { FastifyInstance } from 'fastify';
import { badParam } from '../../errors/index.js';
import { authOf, callerOf, type RouteDeps } from '../deps.js';
import { body, bool, dataEnvelope, responses, str, strList } from '../schemas.js';

const tags = ['admin'];
const userView = {
  type: 'object',
  properties: {
    uid: { type: 'integer' }, username: { type: 'string' }, display_name: { type: 'string' }, email: { type: 'string' },
    email_verified: { type: 'boolean' }, roles: { type: 'array', items: { type: 'string' } }, banned: { type: 'boolean' },
  },
} as const;

/** A positive page number from the query string; anything else is a 400 naming `page`. */
function pageOf(raw: unknown): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(n) || n < 1 || n > 1_000_000) throw badParam('page');
  return n;
}

/** User administration for role admin (CONTRACT §8). */
export async function adminRoutes(app: FastifyInstance, { services, guards }: RouteDeps) {
  app.get('/api/v1/auth/admin/users', {
    preHandler: guards.admin,
    schema: {
      tags, summary: 'Search users by username or e-mail, 20 a page',
      querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 256 }, page: { type: 'string' } } },
      response: responses(dataEnvelope({ type: 'object', properties: { users: { type: 'array', items: userView }, total: { type: 'integer' } } })),
    },
  }, async (request) => {
    const { q, page } = request.query as { q?: string; page?: string };
    return { ok: true, data: await services.admin.searchUsers(q ?? '', pageOf(page)) };
  });

  app.post('/api/v1/auth/admin/users/ban', {
    preHandler: guards.admin,
    schema: { tags, summary: 'Ban or unban a user', body: body({ username: str(256), banned: bool }, ['username', 'banned']), response: responses(dataEnvelope(userView)) },
  }, async (request) => {
    const { username, banned } = request.body as { username: string; banned: boolean };
    return { ok: true, data: await services.admin.setBanned(username, banned, authOf(request).user.username, callerOf(request)) };
  });

  app.post('/api/v1/auth/admin/users/roles', {
    preHandler: guards.admin,
    schema: { tags, summary: "Replace a user's roles", body: body({ username: str(256), roles: strList(20, 64) }, ['username', 'roles']), response: responses(dataEnvelope(userView)) },
  }, async (request) => {
    const { username, roles } = request.body as { username: string; roles: string[] };
    return { ok: true, data: await services.admin.setRoles(username, roles, authOf(request).user.username, callerOf(request)) };
  });
}
