import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppActor, CreateAppInput, UpdateAppInput } from '../../services/apps.js';
import { authOf, NO_STORE, type RouteDeps } from '../deps.js';
import { body, bool, dataEnvelope, responses, str, strList } from '../schemas.js';

const tags = ['apps'];
const list = (name: string, min = 0) => ({ ...strList(20, 4096), minItems: min, description: name });

const viewProperties = {
  client_id: { type: 'string' }, display_name: { type: 'string' }, homepage: { type: 'string' },
  scopes: { type: 'array', items: { type: 'string' } }, redirect_uris: { type: 'array', items: { type: 'string' } },
  cors_origins: { type: 'array', items: { type: 'string' } }, client_type: { type: 'string' }, status: { type: 'string' },
  has_secret: { type: 'boolean' }, created_at: { type: 'integer' }, updated_at: { type: 'integer' },
} as const;
const viewRequired = Object.keys(viewProperties);
export const appViewSchema = { type: 'object', properties: viewProperties, required: viewRequired, additionalProperties: false } as const;
const createdSchema = {
  type: 'object', properties: { ...viewProperties, client_secret: { type: 'string' } }, required: viewRequired, additionalProperties: false,
} as const;
const secretSchema = {
  type: 'object', properties: { client_id: { type: 'string' }, client_secret: { type: 'string' } }, required: ['client_id', 'client_secret'], additionalProperties: false,
} as const;
const statusSchema = {
  type: 'object', properties: { client_id: { type: 'string' }, status: { type: 'string' } }, required: ['client_id', 'status'], additionalProperties: false,
} as const;

const editable = {
  display_name: str(), homepage: str(), redirect_uris: list('redirect_uris'), cors_origins: list('cors_origins'), scopes: strList(20, 64),
};

function actorOf(request: FastifyRequest): AppActor {
  return { user: authOf(request).user, ip: request.ip };
}

/** Application self-management for developers (CONTRACT §3); first-party tokens only. */
export async function appsRoutes(app: FastifyInstance, { services, guards }: RouteDeps) {
  const { apps } = services;

  app.get('/api/v1/auth/apps', {
    preHandler: guards.firstParty,
    schema: {
      tags, summary: "The caller's own applications (secrets omitted)",
      response: responses(dataEnvelope({ type: 'object', properties: { apps: { type: 'array', items: appViewSchema } }, required: ['apps'], additionalProperties: false })),
    },
  }, async (request) => ({ ok: true, data: { apps: await apps.list(authOf(request).user) } }));

  app.post('/api/v1/auth/apps', {
    preHandler: guards.firstParty,
    schema: {
      tags, summary: 'Register an application; a confidential client gets its secret in this response only',
      body: body({ ...editable, redirect_uris: list('redirect_uris'), client_type: str(), client_id: str(64) }, ['display_name', 'redirect_uris']),
      response: responses(dataEnvelope(createdSchema)),
    },
  }, async (request, reply) => {
    void reply.headers(NO_STORE);
    return { ok: true, data: await apps.create(actorOf(request), request.body as CreateAppInput) };
  });

  app.post('/api/v1/auth/apps/update', {
    preHandler: guards.firstParty,
    schema: {
      tags, summary: 'Change profile data and whitelists', body: body({ client_id: str(), ...editable }, ['client_id']),
      response: responses(dataEnvelope(appViewSchema)),
    },
  }, async (request) => ({ ok: true, data: await apps.update(actorOf(request), request.body as UpdateAppInput) }));

  app.post('/api/v1/auth/apps/rotate_secret', {
    preHandler: guards.firstParty,
    schema: {
      tags, summary: 'Issue a new secret; the old one fails at once', body: body({ client_id: str() }, ['client_id']),
      response: responses(dataEnvelope(secretSchema)),
    },
  }, async (request, reply) => {
    void reply.headers(NO_STORE);
    return { ok: true, data: await apps.rotateSecret(actorOf(request), (request.body as { client_id: string }).client_id) };
  });

  app.post('/api/v1/auth/apps/disable', {
    preHandler: guards.firstParty,
    schema: {
      tags, summary: 'Enable or disable; without `enabled` it toggles', body: body({ client_id: str(), enabled: bool }, ['client_id']),
      response: responses(dataEnvelope(statusSchema)),
    },
  }, async (request) => {
    const { client_id, enabled } = request.body as { client_id: string; enabled?: boolean };
    return { ok: true, data: await apps.setEnabled(actorOf(request), client_id, enabled) };
  });
}
