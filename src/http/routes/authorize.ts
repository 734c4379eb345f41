import type { FastifyInstance } from 'fastify';
import type { AuthorizeInput, ExchangeInput } from '../../services/authorization.js';
import { authOf, callerOf, NO_STORE, type RouteDeps } from '../deps.js';
import { body, dataEnvelope, responses, str, tokenEnvelopeSchema } from '../schemas.js';

const tags = ['authorization'];

const clientInfoSchema = {
  type: 'object',
  properties: {
    client_id: { type: 'string' }, display_name: { type: 'string' }, homepage: { type: 'string' },
    scopes: { type: 'array', items: { type: 'string' } }, redirect_ok: { type: 'boolean' },
    client_type: { type: 'string' }, pkce_required: { type: 'boolean' },
  },
  required: ['client_id', 'display_name', 'homepage', 'scopes', 'redirect_ok', 'client_type', 'pkce_required'],
  additionalProperties: false,
} as const;

const codeSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, redirect_url: { type: 'string' }, expires_in: { type: 'integer' } },
  required: ['code', 'redirect_url', 'expires_in'],
  additionalProperties: false,
} as const;

const exchangeSchema = {
  ...tokenEnvelopeSchema,
  properties: { ...tokenEnvelopeSchema.properties, scope: { type: 'string' } },
  required: [...tokenEnvelopeSchema.required, 'scope'],
  additionalProperties: false,
} as const;

/** The authorization-code flow: client_info, authorize, exchange (SPEC §4.2–4.4). */
export async function authorizeRoutes(app: FastifyInstance, { services, guards }: RouteDeps) {
  const { authorization } = services;

  app.post('/api/v1/auth/client_info', {
    schema: {
      tags, summary: 'Check an application and callback for the authorization page',
      body: body({ client_id: str(), redirect_uri: str() }, ['client_id', 'redirect_uri']),
      response: responses(dataEnvelope(clientInfoSchema)),
    },
  }, async (request) => {
    const { client_id, redirect_uri } = request.body as { client_id: string; redirect_uri: string };
    return { ok: true, data: await authorization.clientInfo(client_id, redirect_uri) };
  });

  app.post('/api/v1/auth/authorize', {
    preHandler: guards.firstParty,
    schema: {
      tags, summary: 'Issue a one-time code for the signed-in user',
      body: body({
        client_id: str(), redirect_uri: str(), state: str(4096), scope: str(2048), code_challenge: str(256), code_challenge_method: str(32),
      }, ['client_id', 'redirect_uri']),
      response: responses(dataEnvelope(codeSchema)),
    },
  }, async (request, reply) => {
    void reply.headers(NO_STORE);
    return { ok: true, data: await authorization.authorize(authOf(request).user, request.body as AuthorizeInput) };
  });

  app.post('/api/v1/auth/exchange', {
    schema: {
      tags, summary: 'Exchange a code for a token (client_secret or PKCE code_verifier)',
      // Nothing is required by the schema: a missing field gets the msg of SPEC §7.
      body: body({ client_id: str(), code: str(), client_secret: str(), code_verifier: str(), redirect_uri: str() }),
      response: responses(exchangeSchema),
    },
  }, async (request, reply) => {
    void reply.headers(NO_STORE);
    return authorization.exchange(request.body as ExchangeInput, callerOf(request));
  });
}
