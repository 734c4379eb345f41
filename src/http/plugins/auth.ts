import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError, MSG } from '../../errors/index.js';
import type { Authenticated, TokenService } from '../../services/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth pre-handlers; undefined on routes that do not authenticate. */
    auth: Authenticated | undefined;
  }
}

export type AuthLevel = 'token' | 'first-party' | 'admin';

/**
 * Builds the pre-handlers that guard Bearer routes (CONTRACT §0, §8):
 * `token` any valid token; `first-party` a token of the center itself; `admin` plus role admin.
 */
export function authGuards(tokens: TokenService, centerAppId: string) {
  const guard = (level: AuthLevel): preHandlerAsyncHookHandler =>
    async function requireAuth(request: FastifyRequest, _reply: FastifyReply) {
      const auth = await tokens.authenticate(request.headers.authorization);
      if (level !== 'token' && auth.claims.app !== centerAppId) throw new AppError(403, MSG.notFirstParty);
      if (level === 'admin' && !auth.user.roles.includes('admin')) throw new AppError(403, MSG.adminOnly);
      request.auth = auth;
    };
  return {
    token: guard('token'),
    firstParty: guard('first-party'),
    admin: guard('admin'),
    /** For logout: a valid token is used when present; anything else is ignored. */
    optional: (async function optionalAuth(request: FastifyRequest) {
      if (!request.headers.authorization) return;
      request.auth = await tokens.authenticate(request.headers.authorization).catch(() => undefined);
    }) as preHandlerAsyncHookHandler,
  };
}

export type AuthGuards = ReturnType<typeof authGuards>;
