import {
  DeviceApproveBody,
  DeviceApproveReply,
  DeviceInspectBody,
  DeviceInspectReply,
  DevicePollBody,
  DeviceStartBody,
  DeviceStartReply,
  PollFailure,
} from './contract.js';
import { Failure, responses } from '../../platform/http/contract.js';
import { TokenEnvelope } from '../sessions/index.js';
import {
  authOf,
  callerOf,
  NO_STORE,
  type ContractApp,
} from '../../platform/http/typed-scope.js';
import type { DeviceService } from './device-service.js';
import type { AuthGuards } from '../sessions/index.js';

const tags = ['device'];

/** What the routes below are given. */
export interface DeviceRouteDeps {
  services: { device: DeviceService };
  guards: Pick<AuthGuards, 'firstParty'>;
}

/** Device login and the game token (docs/api.md §7, §3.6). */
export async function deviceRoutes(
  app: ContractApp,
  { services, guards }: DeviceRouteDeps,
) {
  const { device } = services;

  app.post(
    '/api/v1/auth/device/start',
    {
      schema: {
        tags,
        summary:
          'Start a device login: a device_code to poll with and a 6-digit user_code to show',
        body: DeviceStartBody,
        response: responses(DeviceStartReply),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return {
        ok: true as const,
        data: await device.start(request.body.client_id, callerOf(request)),
      };
    },
  );

  app.post(
    '/api/v1/auth/device/inspect',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'Who asks behind a live user_code, for the approval page to show before the user decides; wrong codes count like wrong approvals',
        security: [{ bearer: [] }],
        body: DeviceInspectBody,
        response: responses(DeviceInspectReply),
      },
    },
    async (request) => ({
      ok: true as const,
      data: await device.inspect(
        authOf(request).user,
        request.body.user_code,
        callerOf(request).language,
      ),
    }),
  );

  app.post(
    '/api/v1/auth/device/approve',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'The signed-in user approves (or, with deny: true, refuses) the device showing user_code',
        security: [{ bearer: [] }],
        body: DeviceApproveBody,
        response: responses(DeviceApproveReply),
      },
    },
    async (request) => {
      const { user_code, deny } = request.body;
      return {
        ok: true as const,
        data: await device.approve(
          authOf(request).user,
          user_code,
          deny === true,
          callerOf(request),
        ),
      };
    },
  );

  app.post(
    '/api/v1/auth/device/poll',
    {
      schema: {
        tags,
        summary:
          'The device asks for its token; failures carry an RFC 8628 error code',
        body: DevicePollBody,
        response: { 200: TokenEnvelope, '4xx': PollFailure, '5xx': Failure },
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return device.poll(request.body.device_code, callerOf(request));
    },
  );

  app.post(
    '/api/v1/auth/game_token',
    {
      preHandler: guards.firstParty,
      schema: {
        tags,
        summary:
          'A 30-day token for the game application, to paste into the game',
        security: [{ bearer: [] }],
        response: responses(TokenEnvelope),
      },
    },
    async (request, reply) => {
      void reply.headers(NO_STORE);
      return device.gameToken(authOf(request).user, callerOf(request));
    },
  );
}
