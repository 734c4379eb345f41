import {
  PasskeyDeleteBody,
  PasskeyLoginBody,
  PasskeyRegisterBody,
  PasskeyReply,
  WebAuthnOptionsReply,
} from './contract.js';
import { EmptyReply, responses } from '../../platform/http/contract.js';
import { ReauthBody } from '../reauth/index.js';
import { TokenEnvelope } from '../sessions/index.js';
import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import { proofOf } from '../reauth/index.js';
import type { SecondFactorRouteDeps } from './routes.js';

const tags = ['second factors'];

/** Passkeys on /account, and the passkey sign-in; registered among the second-factor routes. */
export function passkeyRoutes(
  app: ContractApp,
  { services, guards, metrics }: SecondFactorRouteDeps,
): void {
  const { passkeys, reauth } = services;

  app.post(
    '/api/v1/auth/account/passkeys/options',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'WebAuthn creation options for a new passkey (challenge valid 5 minutes, once); needs current_password, and otp when the authenticator is on',
        body: ReauthBody,
        response: responses(WebAuthnOptionsReply),
      },
    },
    async (request) => {
      const auth = authOf(request);
      await reauth.proveFor(
        auth,
        'passkey',
        proofOf(request.body),
        callerOf(request),
      );
      return {
        ok: true as const,
        data: await passkeys.registrationOptions(auth.user),
      };
    },
  );

  app.post(
    '/api/v1/auth/account/passkeys/register',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          "Register a passkey with the browser's answer to the options, in the session that asked for them",
        body: PasskeyRegisterBody,
        response: responses(PasskeyReply),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const { name, response } = request.body;
      await reauth.require(auth, 'passkey');
      const passkey = await passkeys.register(
        auth.user,
        name,
        response,
        callerOf(request),
      );
      await reauth.clear(auth, 'passkey');
      return { ok: true as const, data: passkey };
    },
  );

  app.post(
    '/api/v1/auth/account/passkeys/delete',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Delete one of your passkeys (needs current_password, and otp when the authenticator is on)',
        body: PasskeyDeleteBody,
        response: responses(EmptyReply),
      },
    },
    async (request) => {
      const auth = authOf(request);
      await reauth.prove(auth, proofOf(request.body), callerOf(request));
      await passkeys.remove(auth.user, request.body.id, callerOf(request));
      return { ok: true as const, data: {} };
    },
  );

  app.post(
    '/api/v1/auth/passkey/options',
    {
      schema: {
        tags,
        summary:
          'WebAuthn request options for a passkey sign-in without a user name',
        response: responses(WebAuthnOptionsReply),
      },
    },
    async (_request, reply) => {
      void reply.headers(NO_STORE);
      return {
        ok: true as const,
        data: await passkeys.authenticationOptions(),
      };
    },
  );

  app.post(
    '/api/v1/auth/passkey/login',
    {
      schema: {
        tags,
        summary:
          'Sign in with a passkey (user verification required; counts as both factors); same answer as login',
        body: PasskeyLoginBody,
        response: responses(TokenEnvelope),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      try {
        const envelope = await passkeys.login(
          request.body.response,
          callerOf(request),
        );
        metrics.logins.inc({ method: 'passkey', result: 'success' });
        return envelope;
      } catch (err) {
        metrics.logins.inc({ method: 'passkey', result: 'failure' });
        throw err;
      }
    },
  );
}
