import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { responses } from '../../platform/http/contract.js';
import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import { sendPage } from '../pages/index.js';
import { proofOf } from '../reauth/index.js';
import { TokenEnvelope } from '../sessions/index.js';
import type { UpstreamServices } from './upstream-services.js';
import type { AuthGuards } from '../sessions/index.js';
import {
  FinishBody,
  LinkedReply,
  LinkExistingBody,
  PublicProvidersReply,
} from './contract.js';
import type { CallbackResult } from './flow-service.js';
import { callbackUrl } from './provider-admin.js';

const tags = ['upstream'];
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const StartQuery = Type.Object({
  next: Type.Optional(Type.String({ maxLength: 2048 })),
  ticket: Type.Optional(Type.String({ maxLength: 128 })),
});

/** The page after the provider's answer: a failure, or the ticket the page finishes with (docs/api.md §14.2). */
function answer(reply: FastifyReply, result: CallbackResult): FastifyReply {
  switch (result.kind) {
    case 'redirect':
      return reply
        .code(302)
        .headers(NO_STORE)
        .header('location', result.location)
        .send();
    case 'error':
      return sendPage(
        reply,
        'upstream',
        {
          'upstream-result': 'error',
          'upstream-message': result.message,
          'upstream-problem': result.problem,
          'upstream-provider': result.providerName,
        },
        result.status,
        {
          ...NO_STORE,
          ...(result.retryAfterS !== undefined && {
            'retry-after': String(result.retryAfterS),
          }),
        },
      );
    case 'signin':
      return sendPage(
        reply,
        'upstream',
        {
          'upstream-result': 'signin',
          'upstream-ticket': result.ticket,
          'upstream-next': result.next,
          'upstream-provider': result.provider,
        },
        200,
        {
          ...NO_STORE,
          ...(result.setCookie && { 'set-cookie': result.setCookie }),
        },
      );
    case 'email_exists':
      return sendPage(
        reply,
        'upstream',
        {
          'upstream-result': 'email_exists',
          'upstream-ticket': result.ticket,
          'upstream-next': result.next,
          'upstream-provider': result.provider,
          'upstream-email': result.email,
        },
        200,
        {
          ...NO_STORE,
          ...(result.setCookie && { 'set-cookie': result.setCookie }),
        },
      );
  }
}

/** What the routes below are given. */
export interface UpstreamRouteDeps {
  services: { upstream: UpstreamServices };
  guards: Pick<AuthGuards, 'firstParty'>;
}

/** The browser flow's two addresses and the JSON steps the pages take (docs/api.md §14.2, §14.3). */
export async function upstreamRoutes(
  app: ContractApp,
  { services, guards }: UpstreamRouteDeps,
) {
  const { flows, finish, links } = services.upstream;
  const baseUrl = services.upstream.providers.baseUrl;

  app.get(
    '/login/:id',
    { schema: { hide: true, params: IdParams, querystring: StartQuery } },
    async (request, reply) => {
      const result = await flows.start(
        request.params.id,
        request.query,
        request.headers.cookie,
      );
      if (result.kind === 'redirect') {
        return reply
          .code(302)
          .headers({
            ...NO_STORE,
            'set-cookie': result.setCookie,
            location: result.location,
          })
          .send();
      }
      return answer(reply, result);
    },
  );

  app.get(
    '/login/:id/callback',
    { schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const query = request.url.includes('?')
        ? request.url.slice(request.url.indexOf('?'))
        : '';
      // The address the provider was given, not the Host header: the token request must repeat it exactly.
      const url = new URL(callbackUrl(baseUrl, request.params.id) + query);
      return answer(
        reply,
        await flows.callback(
          request.params.id,
          url,
          request.headers.cookie,
          callerOf(request),
        ),
      );
    },
  );

  app.get(
    '/api/v1/auth/upstream/providers',
    {
      schema: {
        tags,
        summary:
          'The enabled providers: one sign-in button each, 使用 {name} 登录',
        response: responses(PublicProvidersReply),
      },
    },
    async () => ({
      ok: true as const,
      data: { providers: await links.buttons() },
    }),
  );

  app.post(
    '/api/v1/auth/upstream/finish',
    {
      schema: {
        tags,
        summary:
          "Finish a sign-in through a provider with the callback page's ticket (and otp when the account has a second factor); same browser only",
        body: FinishBody,
        response: responses(TokenEnvelope),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return finish.finish(
        request.body.ticket,
        request.body.otp,
        request.headers.cookie,
        callerOf(request),
      );
    },
  );

  app.post(
    '/api/v1/auth/upstream/link_existing',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Link the waiting upstream account to the account holding its e-mail address: that account signed in, with current_password (or email_code without one) and otp when on',
        body: LinkExistingBody,
        response: responses(LinkedReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await finish.linkExisting(
        request.body.ticket,
        authOf(request),
        proofOf(request.body),
        request.headers.cookie,
        callerOf(request),
      ),
    }),
  );
}
