import type { FastifyRequest } from 'fastify';
import { fail } from '../../errors/index.js';
import { memoryFirstGuard } from '../../platform/http/memory-first-guard.js';
import type { Authenticated, TokenService } from './token-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth pre-handlers; undefined on routes that do not authenticate. */
    auth: Authenticated | undefined;
  }
}

export type AuthLevel = 'token' | 'first-party' | 'admin';

/**
 * Builds the pre-handlers that guard Bearer routes (docs/api.md §1.2, §8):
 * `token` any valid token; `first-party` a token of the center itself; `admin` plus role admin.
 */
export function authGuards(tokens: Pick<TokenService, 'acceptedFromMemory' | 'check'>, centerAppId: string) {
  const check = {
    fromMemory: (request: FastifyRequest) => tokens.acceptedFromMemory(request.headers.authorization),
    fromStorage: (request: FastifyRequest) => tokens.check(request.headers.authorization),
  };
  /** Lets the holder of a valid token through at `level`, or throws that level's refusal. */
  const admitAt = (level: AuthLevel) => (request: FastifyRequest, auth: Authenticated): void => {
    if (level !== 'token' && auth.claims.app !== centerAppId) throw fail('notFirstParty');
    if (level === 'admin' && !auth.user.roles.includes('admin')) throw fail('adminOnly');
    request.auth = auth;
  };
  return {
    token: memoryFirstGuard(check, admitAt('token')),
    firstParty: memoryFirstGuard(check, admitAt('first-party')),
    admin: memoryFirstGuard(check, admitAt('admin')),
  };
}

export type AuthGuards = ReturnType<typeof authGuards>;
