import { responses } from '../../platform/http/contract.js';
import {
  authOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { SignInHistory } from './history-service.js';
import type { UserLookup } from '../accounts/index.js';
import type { AuthGuards } from '../sessions/index.js';
import {
  AdminSignInsQuery,
  SignInListReply,
  SignInNoticeBody,
  SignInNoticeReply,
} from './contract.js';

const A = '/api/v1/auth/account';

/** What the routes below are given. */
export interface SignInHistoryRouteDeps {
  services: { signInHistory: SignInHistory; users: UserLookup };
  guards: Pick<AuthGuards, 'admin' | 'firstParty'>;
}

/** The person's own sign-ins and notice setting, and a user's sign-ins for administrators (docs/api.md §17). */
export async function signInHistoryRoutes(
  app: ContractApp,
  { services, guards }: SignInHistoryRouteDeps,
) {
  const history = services.signInHistory;
  const tags = ['account'];

  app.get(
    `${A}/sign_ins`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'The last 50 sign-ins of the last 90 days, newest first',
        response: responses(SignInListReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return {
        ok: true as const,
        data: { sign_ins: await history.list(authOf(request).user.id) },
      };
    },
  );

  app.get(
    `${A}/sign_in_notice`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Whether a sign-in from a new browser or address is e-mailed',
        response: responses(SignInNoticeReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await history.notice(authOf(request).user.id),
    }),
  );

  app.post(
    `${A}/sign_in_notice`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Turn the e-mail about a sign-in from a new browser or address on or off',
        body: SignInNoticeBody,
        response: responses(SignInNoticeReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await history.setNotice(
        authOf(request).user.id,
        request.body.enabled,
      ),
    }),
  );

  app.get(
    '/api/v1/auth/admin/users/sign_ins',
    {
      preHandler: guards.admin,
      schema: {
        tags: ['admin'],
        summary: "A user's last 50 sign-ins of the last 90 days, newest first",
        querystring: AdminSignInsQuery,
        response: responses(SignInListReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      const user = await services.users.userNamed(request.query.username);
      return {
        ok: true as const,
        data: { sign_ins: await history.list(user.id) },
      };
    },
  );
}
