import { AppError } from '../../errors/index.js';
import {
  LoginBody,
  LoginByCodeBody,
  RegisterBody,
  ResetPasswordBody,
  ResetPasswordReply,
  SendCodeBody,
  SendCodeReply,
  VerifyEmailBody,
  VerifyEmailReply,
} from './contract.js';
import { TokenEnvelope } from '../sessions/index.js';
import { responses } from '../../platform/http/contract.js';
import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { AccountService } from './account-service.js';
import type { AccountEmails } from './account-emails.js';
import type { AuthGuards } from '../sessions/index.js';
import type { Metrics } from '../../platform/http/metrics.js';

const tags = ['accounts'];
/** Routes whose `email` is checked as an address: a NUL byte in it is that answer too (platform/http/error-replies.ts). */
const EMAIL_FORMAT = { email: 'badEmail' } as const;

/** What the routes below are given. */
export interface AccountRouteDeps {
  services: { accounts: AccountService; accountEmails: AccountEmails };
  guards: Pick<AuthGuards, 'token'>;
  metrics: Pick<Metrics, 'logins'>;
}

/** Registration and sign-in (docs/api.md §2). */
export async function accountRoutes(
  app: ContractApp,
  { services, guards, metrics }: AccountRouteDeps,
) {
  const { accounts, accountEmails } = services;

  /** Counts sign-in outcomes for /metrics: success, rejected (4xx) or error. */
  async function counted<T>(method: string, run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      metrics.logins.inc({ method, result: 'success' });
      return result;
    } catch (err) {
      metrics.logins.inc({
        method,
        result: err instanceof AppError ? 'failure' : 'error',
      });
      throw err;
    }
  }

  app.post(
    '/api/v1/auth/register',
    {
      config: { fieldFormats: { username: 'badUsername', email: 'badEmail' } },
      schema: {
        tags,
        summary: 'Create an account and sign in',
        body: RegisterBody,
        response: responses(TokenEnvelope),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return accounts.register(request.body, callerOf(request));
    },
  );

  app.post(
    '/api/v1/auth/login',
    {
      schema: {
        tags,
        summary:
          'Sign in with username (or e-mail) and password; `otp` for an account with a second factor',
        body: LoginBody,
        response: responses(TokenEnvelope),
      },
    },
    async (request, reply) => {
      const { username, password, otp, captcha } = request.body;
      void reply.headers(NO_STORE);
      return counted('password', () =>
        accounts.login(username, password, callerOf(request), otp, captcha),
      );
    },
  );

  app.post(
    '/api/v1/auth/send_code',
    {
      config: { fieldFormats: EMAIL_FORMAT },
      schema: {
        tags,
        summary:
          'E-mail a 6-digit code for register, login, verify or reset_password',
        body: SendCodeBody,
        response: responses(SendCodeReply),
      },
    },
    async (request) => {
      const { email, purpose, captcha } = request.body;
      return {
        ok: true as const,
        data: await accountEmails.sendCode(
          email,
          purpose,
          callerOf(request),
          captcha,
        ),
      };
    },
  );

  app.post(
    '/api/v1/auth/login_by_code',
    {
      config: { fieldFormats: EMAIL_FORMAT },
      schema: {
        tags,
        summary:
          'Sign in with an e-mailed login code; `otp` for an account with a second factor',
        body: LoginByCodeBody,
        response: responses(TokenEnvelope),
      },
    },
    async (request, reply) => {
      const { email, code, otp } = request.body;
      void reply.headers(NO_STORE);
      return counted('email_code', () =>
        accounts.loginByCode(email, code, callerOf(request), otp),
      );
    },
  );

  app.post(
    '/api/v1/auth/verify_email',
    {
      preHandler: guards.token,
      schema: {
        tags,
        summary: 'Mark the e-mail verified with a verify code',
        body: VerifyEmailBody,
        response: responses(VerifyEmailReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await accountEmails.verifyEmail(
        authOf(request).user,
        request.body.code,
      ),
    }),
  );

  app.post(
    '/api/v1/auth/reset_password',
    {
      config: { fieldFormats: EMAIL_FORMAT },
      schema: {
        tags,
        summary:
          'Set a new password with a reset_password code; ends every earlier token',
        body: ResetPasswordBody,
        response: responses(ResetPasswordReply),
      },
    },
    async (request) => {
      const { email, code, new_password } = request.body;
      await accountEmails.resetPassword(
        email,
        code,
        new_password,
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );
}
