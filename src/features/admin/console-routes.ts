import {
  AdminAppPageReply,
  AdminAppReply,
  AppAdminScopesBody,
  AdminEndSessionBody,
  AppSearchQuery,
  AppStatusBody,
  ClientIdQuery,
  DashboardReply,
  UserDetailReply,
  UsernameBody,
  UsernameQuery,
} from './console-contract.js';
import { EmptyReply, responses } from '../../platform/http/contract.js';
import { pageNumber } from '../../platform/http/contract.js';
import {
  authOf,
  callerOf,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { AdminService } from './admin-service.js';
import type { AdminConsoleService } from './console-service.js';
import type { AuthGuards } from '../sessions/index.js';
import type { Metrics } from '../../platform/http/metrics.js';

const tags = ['admin'];
const P = '/api/v1/auth/admin';

/** What the routes below are given. */
export interface AdminConsoleRouteDeps {
  services: {
    admin: Pick<AdminService, 'recordApplicationRead'>;
    adminConsole: AdminConsoleService;
  };
  guards: Pick<AuthGuards, 'admin' | 'adminOr'>;
  metrics: Pick<Metrics, 'answeredWith'>;
}

/** User detail, applications and the dashboard, for role admin. */
export async function adminConsoleRoutes(
  app: ContractApp,
  { services, guards, metrics }: AdminConsoleRouteDeps,
) {
  const { adminConsole } = services;
  const preHandler = guards.admin;
  const actorOf = (request: Parameters<typeof authOf>[0]) =>
    authOf(request).user.username;

  app.get(
    `${P}/users/detail`,
    {
      preHandler: guards.adminOr('admin:users:read'),
      schema: {
        tags,
        summary:
          "A user's profile, roles, ban, live sessions, apps and audit trail",
        querystring: UsernameQuery,
        response: responses(UserDetailReply),
      },
    },
    async (request) => {
      const detail = await adminConsole.userDetail(
        request.query.username,
        request.adminClient !== undefined,
        callerOf(request).language,
      );
      await services.admin.recordApplicationRead(
        request.adminClient,
        callerOf(request),
        detail.user.username,
      );
      return { ok: true as const, data: detail };
    },
  );

  app.post(
    `${P}/users/sessions/end`,
    {
      preHandler,
      schema: {
        tags,
        summary: "End one of a user's sessions",
        body: AdminEndSessionBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await adminConsole.endUserSession(
        request.body.username,
        request.body.id,
        actorOf(request),
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );

  app.post(
    `${P}/users/force_reset`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'End every session of the user and mail a reset_password code',
        body: UsernameBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await adminConsole.forcePasswordReset(
        request.body.username,
        actorOf(request),
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );

  app.get(
    `${P}/apps`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'All applications, newest first, 20 a page; q matches name, client_id or owner',
        querystring: AppSearchQuery,
        response: responses(AdminAppPageReply),
      },
    },
    async (request) => {
      const { q, page } = request.query;
      return {
        ok: true as const,
        data: await adminConsole.searchApps(q ?? '', pageNumber(page)),
      };
    },
  );

  app.get(
    `${P}/apps/detail`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'One application with its owner',
        querystring: ClientIdQuery,
        response: responses(AdminAppReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await adminConsole.app(request.query.client_id),
    }),
  );

  app.post(
    `${P}/apps/status`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Stop or restart an application, with a reason that is audited and shown to its owner',
        body: AppStatusBody,
        response: responses(AdminAppReply),
      },
    },
    async (request) => {
      const { client_id, enabled, reason } = request.body;
      return {
        ok: true as const,
        data: await adminConsole.setAppStatus(
          client_id,
          enabled,
          reason,
          actorOf(request),
          callerOf(request),
        ),
      };
    },
  );

  app.post(
    `${P}/apps/admin_scopes`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          "Set the admin API scopes an application's client_credentials tokens may use; [] revokes them",
        body: AppAdminScopesBody,
        response: responses(AdminAppReply),
      },
    },
    async (request) => {
      const { client_id, scopes } = request.body;
      return {
        ok: true as const,
        data: await adminConsole.setAppAdminScopes(
          client_id,
          scopes,
          actorOf(request),
          callerOf(request),
        ),
      };
    },
  );

  app.get(
    `${P}/dashboard`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Users, sign-ins, failed sign-ins per day (30 days), active apps, 429s of this instance',
        response: responses(DashboardReply),
      },
    },
    async () => {
      // 429s are not stored: the figure is this instance's since it started, from its request metrics.
      return {
        ok: true as const,
        data: await adminConsole.dashboard(await metrics.answeredWith(429)),
      };
    },
  );
}
