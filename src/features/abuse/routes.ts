import {
  CaptchaReply,
  InviteCreateBody,
  InviteIdBody,
  InviteListReply,
  NewInviteReply,
} from './contract.js';
import { EmptyReply, responses } from '../../platform/http/contract.js';
import {
  authOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { AbuseServices } from './index.js';
import type { AuthGuards } from '../sessions/index.js';

const tags = ['abuse'];

/** What the routes below are given. */
export interface AbuseRouteDeps {
  services: { abuse: Pick<AbuseServices, 'captcha' | 'invites'> };
  guards: Pick<AuthGuards, 'admin'>;
}

/** The CAPTCHA challenge and the administrators' invite codes (docs/api.md §16). */
export async function abuseRoutes(
  app: ContractApp,
  { services, guards }: AbuseRouteDeps,
) {
  const { captcha, invites } = services.abuse;

  // With CAPTCHA=off this answers 404 `接口不存在`, as an address the API does not have.
  app.get(
    '/api/v1/auth/captcha',
    {
      schema: {
        tags,
        summary:
          'A proof-of-work challenge (ALTCHA) for the `captcha` field, when CAPTCHA=altcha',
        response: responses(CaptchaReply),
      },
    },
    async (_request, reply) => {
      void reply.headers(NO_STORE);
      return { ok: true as const, data: await captcha.challenge() };
    },
  );

  app.get(
    '/api/v1/auth/admin/invites',
    {
      preHandler: guards.admin,
      schema: {
        tags,
        summary: 'Invite codes (REGISTRATION=invite), newest first',
        response: responses(InviteListReply),
      },
    },
    async () => ({
      ok: true as const,
      data: { invites: await invites.list() },
    }),
  );

  app.post(
    '/api/v1/auth/admin/invites',
    {
      preHandler: guards.admin,
      schema: {
        tags,
        summary:
          'Make an invite code good for `uses` registrations (default 1), expiring after `expires_in` seconds',
        body: InviteCreateBody,
        response: responses(NewInviteReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      const { uses, expires_in } = request.body;
      return {
        ok: true as const,
        data: await invites.create(
          { uses, expiresInS: expires_in },
          authOf(request).user.username,
        ),
      };
    },
  );

  app.post(
    '/api/v1/auth/admin/invites/remove',
    {
      preHandler: guards.admin,
      schema: {
        tags,
        summary: 'Delete an invite code',
        body: InviteIdBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      await invites.remove(request.body.id);
      return { ok: true as const, data: {} };
    },
  );
}
