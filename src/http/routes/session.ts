import type { FastifyInstance } from 'fastify';
import { callerOf, authOf, NO_STORE, type RouteDeps } from '../deps.js';
import { dataEnvelope, responses, tokenEnvelopeSchema } from '../schemas.js';

const meData = {
  type: 'object',
  properties: {
    uid: { type: 'integer' }, username: { type: 'string' }, display_name: { type: 'string' }, email: { type: 'string' },
    email_verified: { type: 'boolean' }, roles: { type: 'array', items: { type: 'string' } }, app: { type: 'string' }, exp: { type: 'integer' },
  },
  required: ['uid', 'username', 'display_name', 'email', 'email_verified', 'roles', 'app', 'exp'],
  additionalProperties: false,
} as const;

/** me, refresh, logout (SPEC §4.5, CONTRACT §2). */
export async function sessionRoutes(app: FastifyInstance, { services, guards }: RouteDeps) {
  const { tokens, accounts } = services;

  app.get('/api/v1/auth/me', {
    preHandler: guards.token,
    schema: { tags: ['session'], summary: 'Who the Bearer token belongs to, as stored now', response: responses(dataEnvelope(meData)) },
  }, (request) => {
    // A plain function, not async: the answer is ready at once, so no promise is made for it.
    const { user, claims } = authOf(request);
    return {
      ok: true,
      data: {
        uid: user.id, username: user.username, display_name: user.displayName, email: user.email,
        email_verified: user.emailVerified, roles: user.roles, app: claims.app, exp: claims.exp,
      },
    };
  });

  app.post('/api/v1/auth/refresh', {
    preHandler: guards.token,
    schema: { tags: ['session'], summary: 'A new token for the same user and app, same lifetime class', response: responses(tokenEnvelopeSchema) },
  }, (request, reply) => {
    const { user, claims } = authOf(request);
    void reply.headers(NO_STORE);
    return tokens.envelope(user, claims.app).body;
  });

  app.post('/api/v1/auth/logout', {
    schema: {
      tags: ['session'], summary: 'Revokes the Bearer token; {all:true} revokes every token of the user',
      // No body schema: logout always answers 200 (CONTRACT §2); only `all: true` means all. response: responses(dataEnvelope({ type: 'object' })),
    },
  }, async (request) => {
    // A signed, unexpired token is revoked even when its user is banned or it was revoked before.
    const claims = tokens.decode(request.headers.authorization);
    if (claims) {
      await tokens.revoke(claims);
      const all = (request.body as { all?: unknown } | null)?.all === true;
      if (all) await accounts.revokeAll(claims.uid);
      await services.audit.record(all ? 'logout.all' : 'logout', { actor: claims.sub, ip: callerOf(request).ip, target: claims.sub });
    }
    return { ok: true, data: {} };
  });
}
