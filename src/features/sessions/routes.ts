import { LogoutBody, LogoutReply, MeReply, TokenEnvelope } from './contract.js';
import { responses } from '../../platform/http/contract.js';
import {
  callerOf,
  authOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { SessionService } from './session-service.js';
import type { AuthGuards } from './bearer-guard.js';

const tags = ['session'];

/** What the routes below are given. */
export interface SessionRouteDeps {
  services: { session: SessionService };
  guards: Pick<AuthGuards, 'token'>;
}

/** me, refresh, logout (docs/api.md §3). */
export async function sessionRoutes(
  app: ContractApp,
  { services, guards }: SessionRouteDeps,
) {
  const { session } = services;

  app.get(
    '/api/v1/auth/me',
    {
      preHandler: guards.token,
      schema: {
        tags,
        summary: 'Who the Bearer token belongs to, as stored now',
        response: responses(MeReply),
      },
    },
    (request) => ({ ok: true as const, data: session.me(authOf(request)) }),
  );

  app.post(
    '/api/v1/auth/refresh',
    {
      preHandler: guards.token,
      schema: {
        tags,
        summary: 'A new token for the same user and app, same lifetime class',
        response: responses(TokenEnvelope),
      },
    },
    (request, reply) => {
      void reply.headers(NO_STORE);
      return session.refresh(authOf(request), callerOf(request));
    },
  );

  app.post(
    '/api/v1/auth/logout',
    {
      schema: {
        tags,
        summary:
          'Revokes the Bearer token; {all:true} revokes every token of the user',
        body: LogoutBody,
        response: responses(LogoutReply),
      },
    },
    async (request) => {
      await session.logout(
        request.headers.authorization,
        request.body,
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );
}
