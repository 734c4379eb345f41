import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../../../platform/http/typed-scope.js';
import type { OidcPluginDeps } from '../http/route-deps.js';
import type { EndSessionAnswer } from '../end-session.js';
import { fieldsOf } from '../http/form-body.js';
import { pageErrors, sendHtmlPage } from '../http/html-page.js';
import { CONFIRM_PATH, sendLogoutConfirmation } from '../http/logout-page.js';
import { pageLanguage, pageText, refusalIn } from '../http/page-text.js';

/** RP-Initiated Logout 1.0 at `end_session_endpoint`: GET or form POST, and its confirmation page's POST. */
export async function endSessionRoutes(
  app: FastifyInstance,
  { services }: OidcPluginDeps,
) {
  const { sessions, endSession } = services.oidc;
  pageErrors(app, 'signOutFailed');

  const send = (reply: FastifyReply, answer: EndSessionAnswer) => {
    const lang = pageLanguage(reply.request);
    const text = pageText(lang);
    if ('error' in answer)
      return sendHtmlPage(reply, answer.status ?? 400, text.signOutFailed, [
        refusalIn(lang, answer.error),
        text.retry,
      ]);
    if ('confirm' in answer)
      return sendLogoutConfirmation(reply, answer.confirm);
    // Signed out, or nothing to end: a stale cookie goes either way.
    if (!('sessionKept' in answer))
      void reply.header('set-cookie', sessions.clearCookie());
    if ('redirect' in answer)
      return reply
        .code(302)
        .headers({ location: answer.redirect, 'cache-control': 'no-store' })
        .send();
    return sendHtmlPage(
      reply,
      200,
      text.signedOut,
      [
        text.signedOutLine.replace('{site}', reply.server.siteNames[lang]),
        ...(answer.note ? [refusalIn(lang, answer.note)] : []),
      ],
      { href: '/login', text: text.signInAgain },
    );
  };
  const handle = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: Record<string, string | string[]>,
  ) =>
    send(
      reply,
      await endSession.handle(
        params,
        request.headers.cookie,
        callerOf(request).ip,
      ),
    );
  const schema = { hide: true };
  app.get('/oauth/end_session', { schema }, (request, reply) =>
    handle(request, reply, fieldsOf(request.query)),
  );
  app.post('/oauth/end_session', { schema }, (request, reply) =>
    handle(request, reply, fieldsOf(request.body)),
  );
  app.post(CONFIRM_PATH, { schema }, async (request, reply) =>
    send(
      reply,
      await endSession.confirm(
        fieldsOf(request.body),
        request.headers.cookie,
        callerOf(request).ip,
      ),
    ),
  );
}
