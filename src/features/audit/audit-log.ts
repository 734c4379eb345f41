import type { AuditEntryView, AuditPage } from './contract.js';
import type { AuditEntry, AuditRepo } from './repository.js';
import { csvLine } from '../../platform/csv/csv.js';
import type { Language } from '../../platform/i18n/language.js';

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilter {
  action?: string;
  actor?: string;
  target?: string;
  /** Unix seconds, included. */
  from?: number;
  to?: number;
}

/** At most this many rows go into one CSV download. */
export const AUDIT_EXPORT_MAX = 10_000;

/** The public view of an entry: times in unix seconds, like every other time of the API. */
export function auditView(e: AuditEntry): AuditEntryView {
  return {
    id: e.id,
    at: Math.floor(e.at / 1000),
    actor: e.actor,
    ip: e.ip,
    action: e.action,
    target: e.target,
    detail: e.detail,
  };
}

export interface AuditContext {
  actor?: string | null;
  ip?: string | null;
  target?: string | null;
  detail?: Record<string, unknown>;
}

/** A completed sign-in, told to whoever keeps the sign-in history (docs/api.md §17). */
export interface SignInEvent {
  userId: number;
  ip: string;
  userAgent?: string;
  /** `password`, `email_code`, `passkey`, `upstream:{id}`, `device` or `oidc`. */
  method: string;
  /** The language of the signing-in request, for a notice it causes. */
  language?: Language;
}

export type SignInListener = (event: SignInEvent) => Promise<void>;

/** How `signedIn` writes its audit row when it is not the plain `login.success`. */
export interface SignInAudit {
  action?: string;
  target?: string;
  detail?: Record<string, unknown>;
}

/**
 * Who did what, from where, to whom. Callers pass no secret, password, code or token:
 * detail holds only identifiers and outcomes.
 */
export class AuditLog {
  private readonly signInListeners: SignInListener[] = [];

  constructor(
    private readonly repo: AuditRepo,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** Told of every completed sign-in, after its audit row (the composition root wires the history). */
  onSignIn(listener: SignInListener): void {
    this.signInListeners.push(listener);
  }

  /**
   * A sign-in completed, second factor included: the one place every way of signing in
   * reports to, so the audit trail and the sign-in history cannot disagree about which
   * sign-ins happened. Written as `login.success` with the method unless `audit` says otherwise.
   */
  async signedIn(
    user: { id: number; username: string },
    caller: { ip: string; userAgent?: string; language?: Language },
    method: string,
    audit: SignInAudit = {},
  ): Promise<void> {
    const detail =
      audit.action === undefined
        ? { method, ...audit.detail }
        : (audit.detail ?? {});
    await this.record(audit.action ?? 'login.success', {
      actor: user.username,
      ip: caller.ip,
      target: audit.target ?? user.username,
      detail,
    });
    const event: SignInEvent = {
      userId: user.id,
      ip: caller.ip,
      userAgent: caller.userAgent,
      method,
      language: caller.language,
    };
    for (const listener of this.signInListeners)
      await listener(event).catch(this.onError);
  }

  /** Never fails the request that triggered it: a lost audit row is logged instead. */
  async record(action: string, ctx: AuditContext = {}): Promise<void> {
    try {
      await this.repo.append({
        at: this.now(),
        action,
        actor: ctx.actor ?? null,
        ip: ctx.ip ?? null,
        target: ctx.target ?? null,
        detail: ctx.detail ?? {},
      });
    } catch (err) {
      this.onError(err);
    }
  }

  /** Newest first, AUDIT_PAGE_SIZE a page; empty filter values match everything. */
  async search(filter: AuditFilter, page: number): Promise<AuditPage> {
    const { entries, total } = await this.repo.list(
      this.clean(filter),
      (page - 1) * AUDIT_PAGE_SIZE,
      AUDIT_PAGE_SIZE,
    );
    return { entries: entries.map(auditView), total };
  }

  /** The newest AUDIT_EXPORT_MAX entries matching the filter as CSV (UTF-8 with a BOM for spreadsheets). */
  async csv(filter: AuditFilter): Promise<string> {
    const { entries } = await this.repo.list(
      this.clean(filter),
      0,
      AUDIT_EXPORT_MAX,
    );
    const lines = ['id,time,actor,ip,action,target,detail'];
    for (const e of entries) {
      lines.push(
        csvLine([
          e.id,
          new Date(e.at).toISOString(),
          e.actor,
          e.ip,
          e.action,
          e.target,
          e.detail,
        ]),
      );
    }
    return `\ufeff${lines.join('\r\n')}\r\n`;
  }

  private clean(filter: AuditFilter) {
    const { action, actor, target, from, to } = filter;
    const text = (v: string | undefined) => (v ? v : undefined);
    return {
      action: text(action),
      actor: text(actor),
      target: text(target),
      from: from === undefined ? undefined : from * 1000,
      to: to === undefined ? undefined : to * 1000 + 999,
    };
  }
}
