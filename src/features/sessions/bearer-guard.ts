import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { AppError, fail } from '../../errors/index.js';
import type { AdminScope } from '../apps/index.js';
import type { Authenticated, TokenService } from './token-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth pre-handlers; undefined on routes that do not authenticate. */
    auth: Authenticated | undefined;
    /** The client id of an application calling the admin API with a granted scope (docs/api.md §15.3). */
    adminClient: string | undefined;
  }
}

/**
 * The application a Bearer header is a live client_credentials token of, and whether it may
 * use `scope` of the admin API right now (an active app granted the scope, a token that
 * carries it); undefined for any other header. No scope: a route no application may call.
 */
export type AdminClientLookup = (
  authorization: string | undefined,
  scope: AdminScope | undefined,
) => Promise<{ clientId: string; granted: boolean } | undefined>;

/**
 * 403 `该令牌无权访问此接口` for a valid application token where its scopes do not reach
 * (CONTRACT §0), with RFC 6750 §3.1's `insufficient_scope` and the scope the route needs.
 */
function insufficientScope(scope: AdminScope | undefined): AppError {
  const challenge = `Bearer error="insufficient_scope"${scope === undefined ? '' : `, scope="${scope}"`}`;
  return new AppError('notFirstParty', undefined, undefined, undefined, {
    'www-authenticate': challenge,
  });
}

/** How the audit log names an application acting through the admin API. */
export const appActor = (clientId: string) => `app:${clientId}`;

/** Who is acting on an admin route, as the audit log names them: an admin's username, or `app:<client_id>`. */
export function adminActorOf(request: FastifyRequest): string {
  if (request.adminClient !== undefined) return appActor(request.adminClient);
  if (!request.auth) throw new Error('route used without an auth guard');
  return request.auth.user.username;
}

type AdminCaller = { auth: Authenticated } | { clientId: string };

export type AuthLevel = 'token' | 'first-party' | 'admin';

/**
 * Builds the pre-handlers that guard Bearer routes (docs/api.md §1.2, §8):
 * `token` any valid token; `first-party` a token of the center itself; `admin` plus role admin;
 * `adminOr(scope)` that, or an application granted `scope` (docs/api.md §15.3).
 */
export function authGuards(
  tokens: Pick<TokenService, 'check'>,
  centerAppId: string,
  adminClients: AdminClientLookup = async () => undefined,
) {
  /** Lets the holder of a valid token through at `level`, or throws that level's refusal. */
  const admitAt =
    (level: AuthLevel) =>
    (request: FastifyRequest, auth: Authenticated): void => {
      if (level !== 'token' && auth.claims.app !== centerAppId)
        throw fail('notFirstParty');
      if (level === 'admin' && !auth.user.roles.includes('admin'))
        throw fail('adminOnly');
      request.auth = auth;
    };
  const guard =
    (level: AuthLevel): preHandlerAsyncHookHandler =>
    async (request) => {
      admitAt(level)(
        request,
        await tokens.check(request.headers.authorization),
      );
    };
  const admitAdmin = admitAt('admin');
  /**
   * The admin routes' check: a token the user-token check refuses may still be a valid
   * application token, which is out of its scope here (403), not invalid (401).
   */
  const admin: preHandlerAsyncHookHandler = async (request) => {
    let auth: Authenticated;
    try {
      auth = await tokens.check(request.headers.authorization);
    } catch (err) {
      if (await adminClients(request.headers.authorization, undefined))
        throw insufficientScope(undefined);
      throw err;
    }
    admitAdmin(request, auth);
  };
  /**
   * The one decision for the admin routes applications may call: role admin as on every admin
   * route, or else an application's token with `scope`. Another application token is out of
   * its scope (403); any other token gets the refusal the user-token check gave.
   */
  const adminOr =
    (scope: AdminScope): preHandlerAsyncHookHandler =>
    async (request) => {
      let caller: AdminCaller;
      try {
        caller = { auth: await tokens.check(request.headers.authorization) };
      } catch (err) {
        const client = await adminClients(request.headers.authorization, scope);
        if (client === undefined) throw err;
        if (!client.granted) throw insufficientScope(scope);
        caller = { clientId: client.clientId };
      }
      if ('clientId' in caller) request.adminClient = caller.clientId;
      else admitAdmin(request, caller.auth);
    };
  return {
    token: guard('token'),
    firstParty: guard('first-party'),
    admin,
    adminOr,
  };
}

export type AuthGuards = ReturnType<typeof authGuards>;
