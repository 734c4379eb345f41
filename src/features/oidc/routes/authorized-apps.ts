import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../../platform/http/typed-scope.js';
import type { OidcPluginDeps } from '../http/route-deps.js';
import { AuthorizedAppListReply, RevokeAppBody } from '../pages-contract.js';
import { EmptyReply, responses } from '../../../platform/http/contract.js';

const tags = ['account'];

/** `/account`'s "已授权的应用": first-party Bearer, the v1 API's envelopes (docs/api.md §1). */
export async function authorizedAppsRoutes(
  app: ContractApp,
  { services, guards }: OidcPluginDeps,
) {
  const authorized = services.oidc.authorizedApps;

  app.get(
    '/api/v1/auth/account/authorized_apps',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'The applications the person has authorized, with scopes and times',
        security: [{ bearer: [] }],
        response: responses(AuthorizedAppListReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return {
        ok: true as const,
        data: { apps: await authorized.list(authOf(request).user.id) },
      };
    },
  );

  app.post(
    '/api/v1/auth/account/authorized_apps/revoke',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          "Withdraws an authorization: ends the consent and that app's refresh tokens",
        security: [{ bearer: [] }],
        body: RevokeAppBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await authorized.revoke(
        authOf(request).user,
        request.body.client_id,
        callerOf(request).ip,
      );
      return { ok: true as const, data: {} };
    },
  );
}
