import type { FastifyInstance } from 'fastify';
import { badParam } from '../../errors/index.js';
import type { RouteDeps } from '../deps.js';
import { dataEnvelope, responses } from '../schemas.js';

const nullableString = { type: ['string', 'null'] } as const;
const entryView = {
  type: 'object',
  properties: {
    id: { type: 'integer' }, at: { type: 'integer' }, actor: nullableString, ip: nullableString,
    action: { type: 'string' }, target: nullableString, detail: { type: 'object', additionalProperties: true },
  },
  required: ['id', 'at', 'actor', 'ip', 'action', 'target', 'detail'],
} as const;

/** A positive page number from the query string; anything else is a 400 naming `page`. */
function pageOf(raw: unknown): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || n < 1 || n > 1_000_000) throw badParam('page');
  return n;
}

/** The audit trail for role admin: sign-ins, app changes, bans, role changes, device approvals. */
export async function auditRoutes(app: FastifyInstance, { services, guards }: RouteDeps) {
  app.get('/api/v1/auth/admin/audit', {
    preHandler: guards.admin,
    schema: {
      tags: ['admin'], summary: 'Audit log, newest first, 50 a page; filter by exact action, actor or target',
      querystring: {
        type: 'object',
        properties: { action: { type: 'string', maxLength: 256 }, actor: { type: 'string', maxLength: 256 }, target: { type: 'string', maxLength: 2048 }, page: { type: 'string' } },
      },
      response: responses(dataEnvelope({ type: 'object', properties: { entries: { type: 'array', items: entryView }, total: { type: 'integer' } } })),
    },
  }, async (request) => {
    const { action, actor, target, page } = request.query as Record<string, string | undefined>;
    return { ok: true, data: await services.audit.search({ action, actor, target }, pageOf(page)) };
  });
}
