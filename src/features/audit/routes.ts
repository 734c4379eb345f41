import { AuditPageReply, AuditQuery } from './contract.js';
import { pageNumber } from '../../platform/http/contract.js';
import { responses } from '../../platform/http/contract.js';
import { NO_STORE, type ContractApp } from '../../platform/http/typed-scope.js';
import type { AuditLog } from './audit-log.js';
import type { Guard } from '../../platform/http/typed-scope.js';

const seconds = (v: string | undefined) => (v ? Number(v) : undefined);

/** What the routes below are given. */
export interface AuditRouteDeps {
  services: { audit: AuditLog };
  guards: { admin: Guard };
}

/** The audit trail for role admin: sign-ins, app changes, bans, role changes, device approvals. */
export async function auditRoutes(
  app: ContractApp,
  { services, guards }: AuditRouteDeps,
) {
  app.get(
    '/api/v1/auth/admin/audit',
    {
      preHandler: guards.admin,
      schema: {
        tags: ['admin'],
        summary:
          'Audit log, newest first, 50 a page; filter by exact action, actor or target and a time range (from/to, unix seconds)',
        querystring: AuditQuery,
        response: responses(AuditPageReply),
      },
    },
    async (request) => {
      const { action, actor, target, page, from, to } = request.query;
      return {
        ok: true as const,
        data: await services.audit.search(
          { action, actor, target, from: seconds(from), to: seconds(to) },
          pageNumber(page),
        ),
      };
    },
  );

  app.get(
    '/api/v1/auth/admin/audit/export',
    {
      preHandler: guards.admin,
      schema: {
        tags: ['admin'],
        summary: 'The same filters as a CSV download (newest 10 000 rows)',
        querystring: AuditQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { action, actor, target, from, to } = request.query;
      void reply.headers({
        ...NO_STORE,
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="audit.csv"',
      });
      return services.audit.csv({
        action,
        actor,
        target,
        from: seconds(from),
        to: seconds(to),
      });
    },
  );
}
