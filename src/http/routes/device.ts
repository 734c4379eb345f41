import type { FastifyInstance } from 'fastify';
import { authOf, callerOf, NO_STORE, type RouteDeps } from '../deps.js';
import { body, bool, dataEnvelope, failureSchema, responses, str, tokenEnvelopeSchema } from '../schemas.js';

const tags = ['device'];

const startData = {
  type: 'object',
  properties: {
    device_code: { type: 'string' }, user_code: { type: 'string' }, verification_uri: { type: 'string' },
    verification_uri_complete: { type: 'string' }, expires_in: { type: 'integer' }, interval: { type: 'integer' },
  },
  required: ['device_code', 'user_code', 'verification_uri', 'verification_uri_complete', 'expires_in', 'interval'],
  additionalProperties: false,
} as const;

const approveData = {
  type: 'object',
  properties: { client_id: { type: 'string' }, display_name: { type: 'string' } },
  required: ['client_id', 'display_name'],
  additionalProperties: false,
} as const;

/** Poll failures carry the RFC 8628 `error` code next to `msg` (CONTRACT §6). */
const pollFailureSchema = {
  type: 'object',
  properties: { ok: { type: 'boolean' }, msg: { type: 'string' }, error: { type: 'string' } },
  required: ['ok', 'msg'],
} as const;

/** Device login and the game token (SPEC §4.7, §4.8, CONTRACT §6, §7). */
export async function deviceRoutes(app: FastifyInstance, { services, guards }: RouteDeps) {
  const { device } = services;

  app.post('/api/v1/auth/device/start', {
    schema: {
      tags, summary: 'Start a device login: a device_code to poll with and a 6-digit user_code to show',
      body: body({ client_id: str() }),
      response: responses(dataEnvelope(startData)),
    },
  }, async (request, reply) => {
    const { client_id } = request.body as { client_id?: string };
    void reply.headers(NO_STORE);
    return { ok: true, data: await device.start(client_id, callerOf(request)) };
  });

  app.post('/api/v1/auth/device/approve', {
    preHandler: guards.firstParty,
    schema: {
      tags, summary: 'The signed-in user approves (or, with deny: true, refuses) the device showing user_code',
      security: [{ bearer: [] }],
      body: body({ user_code: str(), deny: bool }, ['user_code']),
      response: responses(dataEnvelope(approveData)),
    },
  }, async (request) => {
    const { user_code, deny } = request.body as { user_code: string; deny?: boolean };
    return { ok: true, data: await device.approve(authOf(request).user, user_code, deny === true, callerOf(request)) };
  });

  app.post('/api/v1/auth/device/poll', {
    schema: {
      tags, summary: 'The device asks for its token; failures carry an RFC 8628 error code',
      body: body({ device_code: str() }, ['device_code']),
      response: { 200: tokenEnvelopeSchema, '4xx': pollFailureSchema, '5xx': failureSchema },
    },
  }, async (request, reply) => {
    const { device_code } = request.body as { device_code: string };
    void reply.headers(NO_STORE);
    return device.poll(device_code, callerOf(request));
  });

  app.post('/api/v1/auth/game_token', {
    preHandler: guards.firstParty,
    schema: {
      tags, summary: 'A 30-day token for the game application, to paste into the game',
      security: [{ bearer: [] }],
      response: responses(tokenEnvelopeSchema),
    },
  }, async (request, reply) => {
    void reply.headers(NO_STORE);
    return device.gameToken(authOf(request).user, callerOf(request));
  });
}
