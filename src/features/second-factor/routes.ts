import {
  AdminSecondFactorBody,
  AdminSecondFactorReply,
  OtpCodeBody,
  RecoveryCodesBody,
  RecoveryCodesReply,
  SecondFactorStatusReply,
  TotpDisableBody,
  TotpSetupReply,
} from './contract.js';
import { EmptyReply, responses } from '../../platform/http/contract.js';
import { ReauthBody } from '../reauth/index.js';
import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { SecondFactorService } from './totp-service.js';
import type { PasskeyService } from './passkey-service.js';
import type { ReauthService } from '../reauth/index.js';
import type { UserLookup } from '../accounts/index.js';
import type { AuthGuards } from '../sessions/index.js';
import type { Metrics } from '../../platform/http/metrics.js';
import { proofOf } from '../reauth/index.js';
import { passkeyRoutes } from './passkey-routes.js';

const tags = ['second factors'];

/** What the routes below are given. */
export interface SecondFactorRouteDeps {
  services: {
    secondFactor: SecondFactorService;
    passkeys: PasskeyService;
    reauth: ReauthService;
    users: UserLookup;
  };
  guards: Pick<AuthGuards, 'admin' | 'firstParty'>;
  metrics: Pick<Metrics, 'logins'>;
}

/** Authenticator app, recovery codes and passkeys: /account, the passkey sign-in, admin removal. */
export async function secondFactorRoutes(
  app: ContractApp,
  { services, guards, metrics }: SecondFactorRouteDeps,
) {
  const { secondFactor, passkeys, reauth } = services;

  app.get(
    '/api/v1/auth/account/second_factor',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Whether the authenticator app is on, recovery codes left, passkeys',
        response: responses(SecondFactorStatusReply),
      },
    },
    async (request, reply) => {
      const { user } = authOf(request);
      void reply.headers(NO_STORE);
      return {
        ok: true as const,
        data: {
          ...(await secondFactor.status(user)),
          passkeys: await passkeys.list(user),
        },
      };
    },
  );

  app.post(
    '/api/v1/auth/account/totp/setup',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'A new authenticator secret (text, otpauth link, QR code); needs current_password; enable must follow within 10 minutes in this session',
        body: ReauthBody,
        response: responses(TotpSetupReply),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      void reply.headers(NO_STORE);
      await reauth.proveFor(
        auth,
        'totp',
        proofOf(request.body),
        callerOf(request),
      );
      return {
        ok: true as const,
        data: await secondFactor.setupTotp(auth.user),
      };
    },
  );

  app.post(
    '/api/v1/auth/account/totp/enable',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Turn the authenticator on with one valid code; answers 10 recovery codes, once',
        body: OtpCodeBody,
        response: responses(RecoveryCodesReply),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      void reply.headers(NO_STORE);
      // A wrong code leaves the grant in place: the user types the code again.
      await reauth.require(auth, 'totp');
      const codes = await secondFactor.enableTotp(
        auth.user,
        request.body.code,
        callerOf(request),
      );
      await reauth.clear(auth, 'totp');
      return { ok: true as const, data: codes };
    },
  );

  app.post(
    '/api/v1/auth/account/totp/disable',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Turn the authenticator off with current_password and otp (authenticator or recovery code)',
        body: TotpDisableBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { password, code } = request.body;
      await reauth.prove(
        auth,
        proofOf(request.body, { password, otp: code }),
        callerOf(request),
      );
      await secondFactor.disableTotp(auth.user, callerOf(request));
      return { ok: true as const, data: {} };
    },
  );

  app.post(
    '/api/v1/auth/account/recovery_codes',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary: 'Replace the recovery codes, with current_password and otp',
        body: RecoveryCodesBody,
        response: responses(RecoveryCodesReply),
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      void reply.headers(NO_STORE);
      await reauth.prove(
        auth,
        proofOf(request.body, { otp: request.body.code }),
        callerOf(request),
      );
      return {
        ok: true as const,
        data: await secondFactor.regenerateRecoveryCodes(
          auth.user,
          callerOf(request),
        ),
      };
    },
  );

  passkeyRoutes(app, { services, guards, metrics });

  app.post(
    '/api/v1/auth/admin/users/second_factor/remove',
    {
      preHandler: guards.admin,
      schema: {
        tags,
        summary:
          "Remove a locked-out user's authenticator and passkeys (audited)",
        body: AdminSecondFactorBody,
        response: responses(AdminSecondFactorReply),
      },
    },
    async (request) => {
      const target = await services.users.userNamed(request.body.username);
      return {
        ok: true as const,
        data: await secondFactor.adminRemove(
          target,
          authOf(request).user.username,
          callerOf(request),
        ),
      };
    },
  );
}
