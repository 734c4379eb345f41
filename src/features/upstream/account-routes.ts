import { responses } from '../../platform/http/contract.js';
import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import { proofOf } from '../reauth/index.js';
import type { UpstreamServices } from './upstream-services.js';
import type { UserLookup } from '../accounts/index.js';
import type { AuthGuards } from '../sessions/index.js';
import {
  AccountLinkBody,
  AccountLinksReply,
  AccountReauthBody,
  AccountUnlinkBody,
  AdminLinksQuery,
  AdminLinksReply,
  AdminUnlinkBody,
  EmptyData,
  FlowUrlReply,
  ProviderAddBody,
  ProviderIdBody,
  ProviderListReply,
  ProviderReply,
  ProviderStatusBody,
  ProviderUpdateBody,
} from './contract.js';

const A = '/api/v1/auth/account/upstream';
const ADMIN = '/api/v1/auth/admin';

/** What the routes below are given. */
export interface UpstreamAccountRouteDeps {
  services: { upstream: UpstreamServices; users: UserLookup };
  guards: Pick<AuthGuards, 'admin' | 'firstParty'>;
}

/** Linked accounts of the signed-in person, and providers and links for administrators (docs/api.md §14). */
export async function upstreamAccountRoutes(
  app: ContractApp,
  { services, guards }: UpstreamAccountRouteDeps,
) {
  const { links, providers } = services.upstream;
  const tags = ['account'];

  app.get(
    A,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Linked accounts, the providers that can be linked, and whether the account has a password',
        response: responses(AccountLinksReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await links.ofAccount(authOf(request).user),
    }),
  );

  app.post(
    `${A}/link`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Start linking a provider (needs current_password, and otp when the authenticator is on): answers where the browser goes',
        body: AccountLinkBody,
        response: responses(FlowUrlReply),
      },
    },
    async (request, reply) => {
      const { provider, next } = request.body;
      const start = await links.beginLink(
        authOf(request),
        provider,
        proofOf(request.body),
        next,
        request.headers.cookie,
        callerOf(request),
      );
      void reply.headers({ ...NO_STORE, 'set-cookie': start.setCookie });
      return { ok: true as const, data: { url: start.url } };
    },
  );

  app.post(
    `${A}/reauth`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'An account without a password proves itself by signing in again with a linked provider: answers where the browser goes',
        body: AccountReauthBody,
        response: responses(FlowUrlReply),
      },
    },
    async (request, reply) => {
      const start = await links.beginReauth(
        authOf(request),
        request.body.provider,
        request.body.next,
        request.headers.cookie,
      );
      void reply.headers({ ...NO_STORE, 'set-cookie': start.setCookie });
      return { ok: true as const, data: { url: start.url } };
    },
  );

  app.post(
    `${A}/unlink`,
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Unlink a provider (needs current_password, and otp when on); never the last way to sign in',
        body: AccountUnlinkBody,
        response: responses(EmptyData),
      },
    },
    async (request) => {
      await links.unlink(
        authOf(request),
        request.body.provider,
        proofOf(request.body),
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );

  const adminTags = ['admin'];
  const admin = guards.admin;
  const actorOf = (request: Parameters<typeof authOf>[0]) => ({
    name: authOf(request).user.username,
    ip: callerOf(request).ip,
  });

  app.get(
    `${ADMIN}/providers`,
    {
      preHandler: admin,
      schema: {
        tags: adminTags,
        summary: 'Sign-in providers (secrets only as has_…)',
        response: responses(ProviderListReply),
      },
    },
    async () => ({
      ok: true as const,
      data: { providers: await providers.list() },
    }),
  );

  app.post(
    `${ADMIN}/providers`,
    {
      preHandler: admin,
      schema: {
        tags: adminTags,
        summary: 'Add a provider',
        body: ProviderAddBody,
        response: responses(ProviderReply),
      },
    },
    async (request) => {
      const { id, type, ...input } = request.body;
      return {
        ok: true as const,
        data: await providers.add(id, type, input, actorOf(request)),
      };
    },
  );

  app.post(
    `${ADMIN}/providers/update`,
    {
      preHandler: admin,
      schema: {
        tags: adminTags,
        summary:
          "Change a provider's settings; an empty string clears an optional one",
        body: ProviderUpdateBody,
        response: responses(ProviderReply),
      },
    },
    async (request) => {
      const { id, ...input } = request.body;
      return {
        ok: true as const,
        data: await providers.update(id, input, actorOf(request)),
      };
    },
  );

  app.post(
    `${ADMIN}/providers/status`,
    {
      preHandler: admin,
      schema: {
        tags: adminTags,
        summary: 'Enable or disable a provider',
        body: ProviderStatusBody,
        response: responses(ProviderReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await providers.setEnabled(
        request.body.id,
        request.body.enabled,
        actorOf(request),
      ),
    }),
  );

  app.post(
    `${ADMIN}/providers/remove`,
    {
      preHandler: admin,
      schema: {
        tags: adminTags,
        summary: 'Remove a provider (its links stay)',
        body: ProviderIdBody,
        response: responses(EmptyData),
      },
    },
    async (request) => {
      await providers.remove(request.body.id, actorOf(request));
      return { ok: true as const, data: {} };
    },
  );

  app.get(
    `${ADMIN}/users/links`,
    {
      preHandler: admin,
      schema: {
        tags: adminTags,
        summary: "A user's linked accounts",
        querystring: AdminLinksQuery,
        response: responses(AdminLinksReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: {
        links: await links.linksOf(
          await services.users.userNamed(request.query.username),
        ),
      },
    }),
  );

  app.post(
    `${ADMIN}/users/links/remove`,
    {
      preHandler: admin,
      schema: {
        tags: adminTags,
        summary: "Remove one of a user's links",
        body: AdminUnlinkBody,
        response: responses(EmptyData),
      },
    },
    async (request) => {
      const user = await services.users.userNamed(request.body.username);
      await links.adminRemove(
        user,
        request.body.provider,
        authOf(request).user.username,
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );
}
