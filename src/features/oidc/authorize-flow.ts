import { admits } from '../apps/index.js';
import {
  checkRequest,
  consentCovers,
  resolveRedirect,
  single,
  type RawParams,
} from './authorize-rules.js';
import { fail, unauthorized } from '../../errors/index.js';
import type { AuditLog } from '../audit/index.js';
import type { Authenticated } from '../sessions/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { App, AppRepo } from '../apps/index.js';
import type { AuthCodeRepo } from '../authorization/index.js';
import type { ConsentRepo } from './repository.js';
import type { SessionRepo } from '../sessions/index.js';
import { acrOf } from './requested-claims.js';
import { signedInAt } from './browser-session.js';
import type { Ticket, Tickets } from './tickets.js';
import type { InteractionView } from './pages-contract.js';
import { AuthorizeCodes } from './authorize-codes.js';
import {
  PAGE_MSG,
  activeClient,
  errorUrl,
  freshEnough,
  loginUrl,
  notAdmittedUrl,
  type Step,
} from './authorize-steps.js';

export { PAGE_MSG, type Step };

export interface AuthorizeFlowSettings {
  issuer: string;
  authCodeTtl: number;
  /** The service's own client ids, which never act as OAuth clients. */
  reservedClientIds: readonly string[];
}

/**
 * The authorization endpoint's use case (docs/api.md §12.3, docs/oidc-internals.md): request
 * checks, the sign-in and consent steps carried by a ticket, remembered consent and the code.
 */
export class AuthorizeFlow {
  constructor(
    private readonly repos: {
      apps: AppRepo;
      codes: AuthCodeRepo;
      consents: ConsentRepo;
      sessions: Pick<SessionRepo, 'findById'>;
    },
    private readonly tickets: Tickets,
    private readonly settings: AuthorizeFlowSettings,
    private readonly audit: AuditLog,
    private readonly now: () => number,
  ) {
    this.codes = new AuthorizeCodes(repos, settings, audit, now);
  }

  private readonly codes: AuthorizeCodes;

  /**
   * A new request from the relying party (GET or form POST to /oauth/authorize).
   * `browser`: the person's browser making this request. A code issued to it is their sign-in
   * at the application, recorded with this browser (the back end's exchange is not one).
   */
  async start(
    params: RawParams,
    session: Authenticated | undefined,
    browser: Caller,
  ): Promise<Step> {
    const clientId = single(params, 'client_id');
    if (typeof clientId === 'object')
      return { page: `${PAGE_MSG.repeated}client_id` };
    if (clientId === undefined) return { page: PAGE_MSG.missingClient };
    const app = await this.client(clientId);
    if (typeof app === 'string') return { page: app };
    const given = single(params, 'redirect_uri');
    if (typeof given === 'object')
      return { page: `${PAGE_MSG.repeated}redirect_uri` };
    const redirect = resolveRedirect(app.redirectUris, given);
    if (!redirect)
      return {
        page:
          given === undefined ? PAGE_MSG.missingRedirect : PAGE_MSG.badRedirect,
      };

    const checked = checkRequest(params, app, redirect);
    if (!checked.ok) {
      const state = single(params, 'state');
      return {
        redirect: errorUrl(
          this.settings.issuer,
          redirect.uri,
          checked.error,
          typeof state === 'string' ? state : undefined,
        ),
      };
    }
    const request = checked.request;
    const requestedAt = this.now();
    const stale =
      session !== undefined &&
      request.maxAge !== undefined &&
      signedInAt(session) + request.maxAge * 1000 < requestedAt;
    return this.proceed(
      {
        request,
        requestedAt,
        freshLogin: request.prompt.includes('login') || stale,
      },
      session,
      browser,
    );
  }

  /** Back from the sign-in page with the ticket. */
  async resume(
    rawTicket: unknown,
    session: Authenticated | undefined,
    browser: Caller,
  ): Promise<Step> {
    const ticket = await this.tickets.open(rawTicket);
    if (!ticket) return { page: PAGE_MSG.badTicket };
    return this.proceed(ticket, session, browser);
  }

  /** What the consent page shows; 401 without a session so the page sends the person to sign in. */
  async interaction(
    rawTicket: unknown,
    session: Authenticated | undefined,
  ): Promise<InteractionView> {
    const { ticket, app } = await this.openForPage(rawTicket);
    if (!session) throw unauthorized();
    return {
      client_id: app.clientId,
      display_name: app.displayName,
      homepage: app.homepage,
      scopes: ticket.request.scopes,
      redirect_uri: ticket.request.redirectUri,
      user: {
        username: session.user.username,
        display_name: session.user.displayName,
      },
    };
  }

  /** The person's answer on the consent page: where the browser goes next. */
  async decide(
    rawTicket: unknown,
    allow: boolean,
    session: Authenticated | undefined,
    browser: Caller,
  ): Promise<string> {
    const { ticket, app } = await this.openForPage(rawTicket);
    const { request } = ticket;
    const record = (action: string) =>
      this.audit.record(action, {
        actor: session?.user.username ?? null,
        ip: browser.ip,
        target: request.clientId,
        detail: { scope: request.scopes.join(' ') },
      });
    if (!allow) {
      await record('oidc.consent.deny');
      return errorUrl(
        this.settings.issuer,
        request.redirectUri,
        {
          error: 'access_denied',
          description: 'the person refused the request',
        },
        request.state,
      );
    }
    if (!session) throw unauthorized();
    if (!freshEnough(ticket, session, this.now()))
      return loginUrl(ticket, rawTicket as string, true);
    // The role may have gone while the consent page was open.
    if (!admits(app, session.user))
      return notAdmittedUrl(this.settings.issuer, request);
    const granted =
      (await this.repos.consents.find(session.user.id, request.clientId))
        ?.scopes ?? [];
    await this.repos.consents.upsert(
      session.user.id,
      request.clientId,
      [...new Set([...granted, ...request.scopes])],
      this.now(),
    );
    await record('oidc.consent');
    return this.codes.issue(request, session, browser);
  }

  private async proceed(
    ticket: Ticket,
    session: Authenticated | undefined,
    browser: Caller,
  ): Promise<Step> {
    const { request } = ticket;
    const app = await this.client(request.clientId);
    if (typeof app === 'string') return { page: app };
    const none = request.prompt.includes('none');
    const fail = (error: string, description: string): Step => ({
      redirect: errorUrl(
        this.settings.issuer,
        request.redirectUri,
        { error, description },
        request.state,
      ),
    });

    if (!session || !freshEnough(ticket, session, this.now())) {
      if (none)
        return fail(
          'login_required',
          'the person is not signed in (or must sign in again)',
        );
      const raw = await this.tickets.issue(ticket);
      return { redirect: loginUrl(ticket, raw, session !== undefined) };
    }
    const acr = request.essentialAcr && acrOf(await this.codes.amrOf(session));
    if (acr !== undefined && !request.essentialAcr!.includes(acr)) {
      // OIDC Core §5.5.1.1: an unmet essential acr is a failed authentication. A sign-in made
      // before the request gets one more chance (the person may have a second factor now).
      if (none)
        return fail(
          'login_required',
          'the sign-in does not meet the requested authentication context',
        );
      if (ticket.freshLogin)
        return fail(
          'access_denied',
          'the sign-in does not meet the requested authentication context',
        );
      const again: Ticket = {
        ...ticket,
        freshLogin: true,
        requestedAt: this.now(),
      };
      return {
        redirect: loginUrl(again, await this.tickets.issue(again), true),
      };
    }
    // Before consent (docs/oidc.md): the person learns why, the app only that access was denied.
    if (!admits(app, session.user)) {
      const back = notAdmittedUrl(this.settings.issuer, request);
      if (none) return { redirect: back };
      await this.audit.record('oidc.role_refused', {
        actor: session.user.username,
        ip: browser.ip,
        target: app.clientId,
      });
      return {
        refused: {
          app: app.displayName,
          username: session.user.username,
          back,
        },
      };
    }
    const consent = await this.repos.consents.find(
      session.user.id,
      app.clientId,
    );
    if (consentCovers(consent?.scopes, request))
      return { redirect: await this.codes.issue(request, session, browser) };
    if (none)
      return fail(
        'consent_required',
        'the person has not consented to this request',
      );
    return {
      redirect: `/authorize?ticket=${encodeURIComponent(await this.tickets.issue(ticket))}`,
    };
  }

  private async openForPage(
    rawTicket: unknown,
  ): Promise<{ ticket: Ticket; app: App }> {
    const ticket = await this.tickets.open(rawTicket);
    if (!ticket) throw fail('authorizationTicketInvalid');
    const app = await this.client(ticket.request.clientId);
    if (typeof app === 'string')
      throw fail(app === PAGE_MSG.appDisabled ? 'appDisabled' : 'unknownApp');
    return { ticket, app };
  }

  private client(clientId: string): Promise<App | string> {
    return activeClient(
      this.repos.apps,
      this.settings.reservedClientIds,
      clientId,
    );
  }
}
