import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, preHandlerHookHandler } from 'fastify';
import { fail } from '../../errors/index.js';
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
export function authGuards(tokens: Pick<TokenService, 'check'>, centerAppId: string) {
  const grantAt = (level: AuthLevel, request: FastifyRequest, auth: Authenticated): void => {
    if (level !== 'token' && auth.claims.app !== centerAppId) throw fail('notFirstParty');
    if (level === 'admin' && !auth.user.roles.includes('admin')) throw fail('adminOnly');
    request.auth = auth;
  };
  // Callback style rather than async: with the user cached (nearly always) the whole check
  // runs without a promise or a microtask, which is a visible share of what `me` costs.
  const guard = (level: AuthLevel): preHandlerHookHandler =>
    function requireAuth(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
      let result: Authenticated | Promise<Authenticated>;
      try {
        result = tokens.check(request.headers.authorization);
        if (!(result instanceof Promise)) grantAt(level, request, result);
      } catch (err) {
        done(err as Error);
        return;
      }
      if (!(result instanceof Promise)) {
        done();
        return;
      }
      result.then((auth) => {
        try {
          grantAt(level, request, auth);
        } catch (err) {
          done(err as Error);
          return;
        }
        done();
      }, (err: Error) => done(err));
    };
  return {
    token: guard('token'),
    firstParty: guard('first-party'),
    admin: guard('admin'),
  };
}

export type AuthGuards = ReturnType<typeof authGuards>;
