import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OidcPluginDeps } from '../http/route-deps.js';
import { callerOf } from '../../../platform/http/typed-scope.js';
import { fieldsOf } from '../http/form-body.js';
import type { Step } from '../authorize-flow.js';
import { pageErrors, sendAuthorizeErrorPage } from '../http/html-page.js';
import { sendRoleRefusalPage } from '../http/role-refusal-page.js';

/** A redirect or the error page; neither may be cached, both carry the pages' headers. */
function answer(reply: FastifyReply, step: Step): FastifyReply {
  if ('page' in step) return sendAuthorizeErrorPage(reply, step.page);
  if ('refused' in step) return sendRoleRefusalPage(reply, step.refused);
  return reply
    .code(302)
    .headers({
      location: step.redirect,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    })
    .send();
}

/** The authorization endpoint (docs/api.md §12.3): GET or form POST, and the way back from sign-in. */
export async function authorizeEndpointRoutes(
  app: FastifyInstance,
  { services }: OidcPluginDeps,
) {
  const { authorize, sessions } = services.oidc;
  const schema = { hide: true };
  pageErrors(app, 'authorizeFailed');

  app.get('/oauth/authorize', { schema }, async (request, reply) => {
    const session = await sessions.current(request.headers.cookie);
    return answer(
      reply,
      await authorize.start(
        fieldsOf(request.query),
        session,
        callerOf(request),
      ),
    );
  });

  app.post('/oauth/authorize', { schema }, async (request, reply) => {
    const session = await sessions.current(request.headers.cookie);
    return answer(
      reply,
      await authorize.start(fieldsOf(request.body), session, callerOf(request)),
    );
  });

  app.get('/oauth/authorize/resume', { schema }, async (request, reply) => {
    const session = await sessions.current(request.headers.cookie);
    return answer(
      reply,
      await authorize.resume(
        fieldsOf(request.query).ticket,
        session,
        callerOf(request),
      ),
    );
  });
}
