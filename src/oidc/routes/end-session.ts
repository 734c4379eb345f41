import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, type RouteDeps } from '../../http/deps.js';
import type { RawParams } from '../../domain/oidc-authorize.js';
import { fieldsOf } from '../form-body.js';
import { pageErrors, sendHtmlPage } from '../html-page.js';

/** RP-Initiated Logout 1.0 at `end_session_endpoint`: GET or form POST. */
export async function endSessionRoutes(app: FastifyInstance, { services }: RouteDeps) {
  const { sessions, endSession } = services.oidc;
  pageErrors(app, '退出登录失败');

  const handle = async (request: FastifyRequest, reply: FastifyReply, params: RawParams) => {
    const answer = await endSession.handle(params, request.headers.cookie, callerOf(request).ip);
    if ('error' in answer) return sendHtmlPage(reply, 400, '退出登录失败', [answer.error, '请返回应用重试。']);
    void reply.header('set-cookie', sessions.clearCookie());
    if ('redirect' in answer) return reply.code(302).headers({ location: answer.redirect, 'cache-control': 'no-store' }).send();
    return sendHtmlPage(reply, 200, '已退出登录', ['你已退出账号中心。', ...(answer.note ? [answer.note] : [])], { href: '/login', text: '重新登录' });
  };
  const schema = { hide: true };
  app.get('/oauth/end_session', { schema }, (request, reply) => handle(request, reply, fieldsOf(request.query)));
  app.post('/oauth/end_session', { schema }, (request, reply) => {
    return handle(request, reply, fieldsOf(request.body));
  });
}
