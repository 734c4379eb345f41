import type { SignInNoticeView, SignInView } from './contract.js';
import type { SignInRecord } from './repository.js';
import { newSignInNotice } from './sign-in-notice.js';
import type { Language } from '../../platform/i18n/language.js';
import type { Config } from '../../config/index.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { UserRepo } from '../accounts/index.js';
import type { SignInHistoryRepo } from './repository.js';
import type { Logger } from 'pino';

/** How long a sign-in is kept and counts as "seen" (docs/api.md §17). */
export const SIGN_IN_RETENTION_MS = 90 * 24 * 3600_000;
/** How many the person and the administrators see. */
export const SIGN_IN_LIST_MAX = 50;
/** Longer user agents are cut: the header is the client's to fill. */
const USER_AGENT_MAX = 512;

/** A completed sign-in, as the audit log reports it (features/audit `SignInEvent`). */
export interface CompletedSignIn {
  userId: number;
  ip: string;
  userAgent?: string;
  method: string;
  language?: Language;
}

export interface SignInHistoryDeps {
  readonly now: () => number;
  readonly log: Logger;
  readonly mailer: Mailer;
  readonly storage: {
    readonly signInHistory: SignInHistoryRepo;
    readonly users: UserRepo;
  };
  readonly config: Pick<Config, 'baseUrl'>;
}

function view(r: SignInRecord): SignInView {
  return {
    at: Math.floor(r.at / 1000),
    ip: r.ip,
    user_agent: r.userAgent,
    method: r.method,
  };
}

/**
 * Every completed sign-in, kept 90 days, and the e-mail to the owner when one comes from a
 * browser or an address the account had not used in that time (queued in the mail outbox:
 * the sign-in never waits for the mail server). The account's first sign-in
 * sends none: with nothing seen before, every browser would be new.
 */
export class SignInHistory {
  constructor(private readonly ctx: SignInHistoryDeps) {}

  /** Never fails the sign-in that triggered it: a lost row or notice is logged instead. */
  async record(event: CompletedSignIn): Promise<void> {
    try {
      await this.recordOrThrow(event);
    } catch (err) {
      this.ctx.log.error(
        { err, uid: event.userId },
        'could not record a sign-in',
      );
    }
  }

  private async recordOrThrow(event: CompletedSignIn): Promise<void> {
    const repo = this.ctx.storage.signInHistory;
    const at = this.ctx.now();
    const userAgent = (event.userAgent ?? '').slice(0, USER_AGENT_MAX);
    // Read before the row goes in, so the sign-in does not count as its own precedent.
    const seen = await repo.familiarity(
      event.userId,
      at - SIGN_IN_RETENTION_MS,
      event.ip,
      userAgent,
    );
    await repo.append({
      userId: event.userId,
      at,
      ip: event.ip,
      userAgent,
      method: event.method,
    });
    if (await repo.claimFirstSignIn(event.userId, at)) return;
    if (seen.sameBrowser > 0 && seen.sameAddress > 0) return;
    if (!(await repo.noticeEnabled(event.userId))) return;
    const user = await this.ctx.storage.users.findById(event.userId);
    if (!user || user.email === '') return;
    const accountUrl = `${this.ctx.config.baseUrl}/account`;
    try {
      await this.ctx.mailer.send(
        newSignInNotice(
          {
            username: user.username,
            email: user.email,
            at,
            ip: event.ip,
            userAgent,
            accountUrl,
          },
          event.language,
        ),
      );
    } catch (err) {
      this.ctx.log.warn(
        { err, uid: user.id },
        'could not queue the new sign-in notice',
      );
    }
  }

  /** The newest SIGN_IN_LIST_MAX sign-ins of the last 90 days, newest first. */
  async list(userId: number): Promise<SignInView[]> {
    const rows = await this.ctx.storage.signInHistory.listRecent(
      userId,
      this.ctx.now() - SIGN_IN_RETENTION_MS,
      SIGN_IN_LIST_MAX,
    );
    return rows.map(view);
  }

  async notice(userId: number): Promise<SignInNoticeView> {
    return {
      enabled: await this.ctx.storage.signInHistory.noticeEnabled(userId),
    };
  }

  async setNotice(userId: number, enabled: boolean): Promise<SignInNoticeView> {
    await this.ctx.storage.signInHistory.setNoticeEnabled(userId, enabled);
    return { enabled };
  }

  /** Housekeeping: sign-ins older than 90 days go. */
  purge(): Promise<number> {
    return this.ctx.storage.signInHistory.purgeOlderThan(
      this.ctx.now() - SIGN_IN_RETENTION_MS,
    );
  }

  /** A deleted account's history and setting. */
  forget(userId: number): Promise<void> {
    return this.ctx.storage.signInHistory.deleteAllOf(userId);
  }
}
