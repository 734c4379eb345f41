import {
  ChangeEmailBody,
  ChangeEmailCodeBody,
  ChangeEmailReply,
  ChangePasswordBody,
  DeleteAccountBody,
  DeleteAccountReply,
  EndOtherSessionsReply,
  EndSessionBody,
  EndSessionReply,
  ProfileBody,
  ProfileReply,
  SessionListReply,
} from './contract.js';
import { SendCodeReply } from '../sign-in/index.js';
import { TokenEnvelope } from '../sessions/index.js';
import { AppSuspensionsReply } from '../apps/index.js';
import { responses } from '../../platform/http/contract.js';
import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { AccountSettingsService } from './settings-service.js';
import type { AccountEmails } from '../sign-in/index.js';
import type { AppService } from '../apps/index.js';
import type { AuthGuards } from '../sessions/index.js';
import { proofOf } from '../reauth/index.js';

const tags = ['account'];
const P = '/api/v1/auth/account';

/** What the routes below are given. */
export interface AccountSettingsRouteDeps {
  services: {
    settings: AccountSettingsService;
    accountEmails: AccountEmails;
    apps: Pick<AppService, 'suspensions'>;
  };
  guards: Pick<AuthGuards, 'firstParty'>;
}

/** The signed-in user's own account; every route needs a first-party token. */
export async function accountSettingsRoutes(
  app: ContractApp,
  { services, guards }: AccountSettingsRouteDeps,
) {
  const { settings, accountEmails } = services;
  const preHandler = guards.firstParty;

  app.post(
    `${P}/profile`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'Change the display name',
        body: ProfileBody,
        response: responses(ProfileReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await settings.rename(
        authOf(request).user,
        request.body.display_name,
        callerOf(request),
      ),
    }),
  );

  app.post(
    `${P}/password`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Change the password (needs current_password, and otp when the authenticator is on); by default ends every other session and answers a fresh token of this one',
        body: ChangePasswordBody,
        response: responses(TokenEnvelope),
      },
    },
    async (request, reply) => {
      const { new_password, end_other_sessions } = request.body;
      void reply.headers(NO_STORE);
      return settings.changePassword(
        authOf(request),
        proofOf(request.body),
        new_password,
        end_other_sessions !== false,
        callerOf(request),
      );
    },
  );

  app.post(
    `${P}/reauth/send_code`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'An account without a password: e-mail a re-authentication code to its address (valid 10 minutes, once), given back as email_code',
        response: responses(SendCodeReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await accountEmails.sendReauthCode(
        authOf(request).user,
        callerOf(request),
      ),
    }),
  );

  app.post(
    `${P}/email/send_code`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'E-mail a change_email code to the new address (needs current_password, and otp when the authenticator is on)',
        body: ChangeEmailCodeBody,
        response: responses(SendCodeReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await accountEmails.sendEmailChangeCode(
        authOf(request),
        request.body.email,
        proofOf(request.body),
        callerOf(request),
      ),
    }),
  );

  app.post(
    `${P}/email`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Move the account to the new address with the code sent there, within 10 minutes in the session that asked for it; the old address gets a notice',
        body: ChangeEmailBody,
        response: responses(ChangeEmailReply),
      },
    },
    async (request) => {
      const { email, code } = request.body;
      return {
        ok: true as const,
        data: await accountEmails.changeEmail(
          authOf(request),
          email,
          code,
          callerOf(request),
        ),
      };
    },
  );

  app.get(
    `${P}/sessions`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Live sign-ins of the user, newest first; `current` marks this one',
        response: responses(SessionListReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: {
        sessions: await settings.sessions(
          authOf(request),
          callerOf(request).language,
        ),
      },
    }),
  );

  app.post(
    `${P}/sessions/end`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'End one session: every token of it is refused from now on',
        body: EndSessionBody,
        response: responses(EndSessionReply),
      },
    },
    async (request) => {
      const { user } = authOf(request);
      await settings.endSession(
        user,
        request.body.id,
        user.username,
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );

  app.post(
    `${P}/sessions/end_others`,
    {
      preHandler,
      schema: {
        tags,
        summary: 'End every session but this one',
        response: responses(EndOtherSessionsReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: {
        ended: await settings.endOtherSessions(
          authOf(request),
          callerOf(request),
        ),
      },
    }),
  );

  app.get(
    `${P}/app_suspensions`,
    {
      preHandler,
      schema: {
        tags,
        summary: "The caller's apps an administrator stopped, with the reason",
        response: responses(AppSuspensionsReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: {
        suspensions: await services.apps.suspensions(authOf(request).user),
      },
    }),
  );

  app.post(
    `${P}/delete`,
    {
      preHandler,
      schema: {
        tags,
        summary:
          'Delete the account (needs current_password, and otp when the authenticator is on); ends everything',
        body: DeleteAccountBody,
        response: responses(DeleteAccountReply),
      },
    },
    async (request) => {
      await settings.deleteAccount(
        authOf(request),
        proofOf(request.body, { password: request.body.password }),
        callerOf(request),
      );
      return { ok: true as const, data: {} };
    },
  );
}
