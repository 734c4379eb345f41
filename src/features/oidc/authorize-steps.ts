import { MSG } from '../../errors/index.js';
import {
  withQuery,
  type AuthorizationRequest,
  type RedirectError,
} from './authorize-rules.js';
import {
  isActive,
  isReservedClientId,
  type App,
  type AppRepo,
} from '../apps/index.js';
import type { Ticket } from './tickets.js';
import type { Authenticated } from '../sessions/index.js';
import { signedInAt } from './browser-session.js';

/**
 * What the authorization endpoint answers: a page with an error (never a redirect), a 302, or
 * the page telling a signed-in person the app admits only some roles, with the way back to the
 * app (`error=access_denied`) as its one link.
 */
export type Step =
  | { page: string }
  | { redirect: string }
  | { refused: { app: string; username: string; back: string } };

/** Texts of the error page: the request cannot be sent back to any callback. */
export const PAGE_MSG = {
  missingClient: '授权请求缺少参数：client_id',
  repeated: '授权请求的参数重复：',
  unknownApp: '未知的应用',
  appDisabled: '该应用已被停用',
  badRedirect: '回调地址不在白名单内',
  missingRedirect: '授权请求缺少参数：redirect_uri',
  badTicket: MSG.authorizationTicketInvalid,
} as const;

/** RFC 6749 §4.1.2.1 with RFC 9207's `iss`. */
export function errorUrl(
  issuer: string,
  redirectUri: string,
  err: RedirectError,
  state: string | undefined,
): string {
  return withQuery(redirectUri, {
    error: err.error,
    error_description: err.description,
    state,
    iss: issuer,
  });
}

/** The sign-in page, coming back to the request with its ticket. */
export function loginUrl(
  ticket: Ticket,
  raw: string,
  switchAccount: boolean,
): string {
  const next = `/oauth/authorize/resume?ticket=${encodeURIComponent(raw)}`;
  const q = new URLSearchParams({ next });
  if (switchAccount) q.set('switch', '1');
  if (ticket.request.loginHint !== undefined)
    q.set('login_hint', ticket.request.loginHint);
  return `/login?${q.toString()}`;
}

/** `access_denied` for an app that admits only roles the person does not hold: nothing about them. */
export function notAdmittedUrl(
  issuer: string,
  request: Pick<AuthorizationRequest, 'redirectUri' | 'state'>,
): string {
  return errorUrl(
    issuer,
    request.redirectUri,
    {
      error: 'access_denied',
      description:
        'the person holds none of the roles this application requires',
    },
    request.state,
  );
}

/** The active app of a client id, or the page text saying why it cannot act as a client. */
export async function activeClient(
  apps: Pick<AppRepo, 'findById'>,
  reservedClientIds: readonly string[],
  clientId: string,
): Promise<App | string> {
  if (isReservedClientId(clientId, reservedClientIds) || clientId.length > 256)
    return PAGE_MSG.unknownApp;
  const app = await apps.findById(clientId);
  if (!app) return PAGE_MSG.unknownApp;
  return isActive(app.status) ? app : PAGE_MSG.appDisabled;
}

/** prompt=login and an exceeded max_age ask for a sign-in made after the request. */
export function freshEnough(
  ticket: Ticket,
  session: Authenticated,
  now: number,
): boolean {
  const at = signedInAt(session);
  if (ticket.freshLogin) return at > ticket.requestedAt;
  const maxAge = ticket.request.maxAge;
  return maxAge === undefined || at + maxAge * 1000 >= now;
}
