import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../../platform/http/typed-scope.js';
import type { RouteDeps } from '../../services.js';
import {
  ConsentBody,
  ConsentReply,
  InteractionReply,
  TicketBody,
} from '../pages-contract.js';
import { EmptyReply, responses } from '../../../platform/http/contract.js';

const tags = ['oidc pages'];
const empty = EmptyReply;
/**
 * JSON helpers of the pages (docs/oidc-internals.md), with the v1 API's `{ ok, … }` envelopes:
 * the browser session cookie and the consent page in ticket mode. They take JSON only, so a
 * form on another site can neither set the session nor consent for the person.
 */
export async function pagesSessionRoutes(
  app: ContractApp,
  { services, guards }: RouteDeps,
) {
  const { sessions, authorize } = services.oidc;

  app.post(
    '/oauth/session',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Keeps the Bearer first-party token as the browser session cookie',
        response: responses(empty),
      },
    },
    async (request, reply) => {
      const { claims } = authOf(request);
      const token = (request.headers.authorization ?? '').replace(
        /^bearer +/i,
        '',
      );
      return reply
        .headers({
          ...NO_STORE,
          'set-cookie': sessions.setCookie(token, claims.exp),
        })
        .send({ ok: true as const, data: {} });
    },
  );

  app.post(
    '/oauth/session/end',
    {
      schema: {
        tags,
        summary: 'Clears the browser session cookie',
        response: responses(empty),
      },
    },
    async (_request, reply) =>
      reply
        .headers({ ...NO_STORE, 'set-cookie': sessions.clearCookie() })
        .send({ ok: true as const, data: {} }),
  );

  app.post(
    '/oauth/interaction',
    {
      schema: {
        tags,
        summary: 'What the consent page shows for a ticket',
        body: TicketBody,
        response: responses(InteractionReply),
      },
    },
    async (request, reply) => {
      const session = await sessions.current(request.headers.cookie);
      return reply.headers(NO_STORE).send({
        ok: true as const,
        data: await authorize.interaction(request.body.ticket, session),
      });
    },
  );

  app.post(
    '/oauth/consent',
    {
      schema: {
        tags,
        summary:
          'The person allows or refuses; answers where the browser goes next',
        body: ConsentBody,
        response: responses(ConsentReply),
      },
    },
    async (request, reply) => {
      const session = await sessions.current(request.headers.cookie);
      const { ticket, decision } = request.body;
      return reply.headers(NO_STORE).send({
        ok: true as const,
        data: {
          redirect_to: await authorize.decide(
            ticket,
            decision === 'allow',
            session,
            callerOf(request),
          ),
        },
      });
    },
  );
}
