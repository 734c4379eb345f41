import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors/index.js';
import type { RegisterInput } from '../../services/accounts.js';
import { authOf, callerOf, NO_STORE, type RouteDeps } from '../deps.js';
import { body, dataEnvelope, responses, str, tokenEnvelopeSchema } from '../schemas.js';

const tags = ['accounts'];

/** Registration and sign-in (CONTRACT §1). */
export async function accountRoutes(app: FastifyInstance, { services, guards, metrics }: RouteDeps) {
  const { accounts } = services;

  /** Counts sign-in outcomes for /metrics: success, rejected (4xx) or error. */
  async function counted<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      metrics.logins.inc({ method, result: 'success' });
      return result;
    } catch (err) {
      metrics.logins.inc({ method, result: err instanceof AppError ? 'failure' : 'error' });
      throw err;
    }
  }

  app.post('/api/v1/auth/register', {
    schema: {
      tags, summary: 'Create an account and sign in',
      body: body({ username: str(), password: str(), email: str(), display_name: str(), email_code: str() }, ['username', 'password', 'email']),
      response: responses(tokenEnvelopeSchema),
    },
  }, async (request, reply) => {
    void reply.headers(NO_STORE);
    return accounts.register(request.body as RegisterInput, callerOf(request));
  });

  app.post('/api/v1/auth/login', {
    schema: {
      tags, summary: 'Sign in with username (or e-mail) and password',
      body: body({ username: str(), password: str() }, ['username', 'password']),
      response: responses(tokenEnvelopeSchema),
    },
  }, async (request, reply) => {
    const { username, password } = request.body as { username: string; password: string };
    void reply.headers(NO_STORE);
    return counted('password', () => accounts.login(username, password, callerOf(request)));
  });

  app.post('/api/v1/auth/send_code', {
    schema: {
      tags, summary: 'E-mail a 6-digit code for register, login, verify or reset_password',
      body: body({ email: str(), purpose: str() }, ['email', 'purpose']),
      response: responses(dataEnvelope({ type: 'object', properties: { expires_in: { type: 'integer' }, resend_after: { type: 'integer' } } })),
    },
  }, async (request) => {
    const { email, purpose } = request.body as { email: string; purpose: string };
    return { ok: true, data: await accounts.sendCode(email, purpose, callerOf(request)) };
  });

  app.post('/api/v1/auth/login_by_code', {
    schema: {
      tags, summary: 'Sign in with an e-mailed login code',
      body: body({ email: str(), code: str() }, ['email', 'code']),
      response: responses(tokenEnvelopeSchema),
    },
  }, async (request, reply) => {
    const { email, code } = request.body as { email: string; code: string };
    void reply.headers(NO_STORE);
    return counted('email_code', () => accounts.loginByCode(email, code, callerOf(request)));
  });

  app.post('/api/v1/auth/verify_email', {
    preHandler: guards.token,
    schema: {
      tags, summary: 'Mark the e-mail verified with a verify code',
      body: body({ code: str() }, ['code']),
      response: responses(dataEnvelope({ type: 'object', properties: { email_verified: { type: 'boolean' } } })),
    },
  }, async (request) => {
    const { code } = request.body as { code: string };
    return { ok: true, data: await accounts.verifyEmail(authOf(request).user, code) };
  });

  app.post('/api/v1/auth/reset_password', {
    schema: {
      tags, summary: 'Set a new password with a reset_password code; ends every earlier token',
      body: body({ email: str(), code: str(), new_password: str() }, ['email', 'code', 'new_password']),
      response: responses(dataEnvelope({ type: 'object' })),
    },
  }, async (request) => {
    const { email, code, new_password } = request.body as { email: string; code: string; new_password: string };
    await accounts.resetPassword(email, code, new_password, callerOf(request));
    return { ok: true, data: {} };
  });
}
