/** The results and dependencies of the browser flow (flow-service.ts, flow-intents.ts). */
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { ReauthGrantRepo } from '../reauth/index.js';
import type { FlowFailurePage } from './flow-messages.js';
import type { Memberships } from './protocols/index.js';

/** What a state was made for: a sign-in, a link from /account, or a re-authentication. */
export type Intent = 'signin' | 'link' | 'reauth';
/** The upstream account that waits, in a `link_existing` ticket, for proof of the account holding its address. */
export interface WaitingSubject {
  subject: string;
  /** The address the provider vouched for; the ticket's user holds it, and only that user may link. */
  email?: string;
  displayName?: string;
  avatarUrl?: string;
  /** Applied to the account's roles once it is linked. */
  memberships?: Memberships;
}

export type StartResult =
  | { kind: 'redirect'; location: string; setCookie: string }
  | FlowFailurePage;
export type CallbackResult =
  | FlowFailurePage
  | { kind: 'redirect'; location: string }
  | {
      kind: 'signin';
      ticket: string;
      next: string;
      provider: string;
      setCookie?: string;
    }
  | {
      kind: 'email_exists';
      ticket: string;
      next: string;
      provider: string;
      email: string;
      setCookie?: string;
    };

export interface FlowDeps {
  readonly now: () => number;
  readonly log: Logger;
  readonly audit: AuditLog;
  readonly storage: {
    readonly users: UserRepo;
    readonly reauthGrants: ReauthGrantRepo;
  };
  readonly config: Pick<Config, 'baseUrl'>;
}
