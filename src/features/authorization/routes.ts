import {
  AuthorizeBody,
  ClientInfoBody,
  ClientInfoReply,
  ExchangeBody,
  ExchangeReply,
  IssuedCodeReply,
} from './contract.js';
import { responses } from '../../platform/http/contract.js';
import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { AuthorizationService } from './authorization-service.js';
import type { AuthGuards } from '../sessions/index.js';

const tags = ['authorization'];

/** What the routes below are given. */
export interface AuthorizeRouteDeps {
  services: { authorization: AuthorizationService };
  guards: Pick<AuthGuards, 'firstParty'>;
}

/** The authorization-code flow: client_info, authorize, exchange (docs/api.md §5.3–5.5). */
export async function authorizeRoutes(
  app: ContractApp,
  { services, guards }: AuthorizeRouteDeps,
) {
  const { authorization } = services;

  app.post(
    '/api/v1/auth/client_info',
    {
      schema: {
        tags,
        summary: 'Check an application and callback for the authorization page',
        body: ClientInfoBody,
        response: responses(ClientInfoReply),
      },
    },
    async (request) => {
      const { client_id, redirect_uri } = request.body;
      return {
        ok: true as const,
        data: await authorization.clientInfo(client_id, redirect_uri),
      };
    },
  );

  app.post(
    '/api/v1/auth/authorize',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Issue a one-time code for the signed-in user',
        body: AuthorizeBody,
        response: responses(IssuedCodeReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return {
        ok: true as const,
        data: await authorization.authorize(authOf(request).user, request.body),
      };
    },
  );

  app.post(
    '/api/v1/auth/exchange',
    {
      schema: {
        tags,
        summary:
          'Exchange a code for a token (client_secret or PKCE code_verifier)',
        body: ExchangeBody,
        response: responses(ExchangeReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return authorization.exchange(request.body, callerOf(request));
    },
  );
}
