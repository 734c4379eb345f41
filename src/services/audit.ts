import type { AuditEntry, AuditRepo } from '../storage/types.js';

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilter {
  action?: string;
  actor?: string;
  target?: string;
}

/** The public view of an entry: times in unix seconds, like every other time of the API. */
export function auditView(e: AuditEntry) {
  return { id: e.id, at: Math.floor(e.at / 1000), actor: e.actor, ip: e.ip, action: e.action, target: e.target, detail: e.detail };
}

export interface AuditContext {
  actor?: string | null;
  ip?: string | null;
  target?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Who did what, from where, to whom. Callers pass no secret, password, code or token:
 * detail holds only identifiers and outcomes.
 */
export class AuditLog {
  constructor(private readonly repo: AuditRepo, private readonly now: () => number, private readonly onError: (err: unknown) => void) {}

  /** Never fails the request that triggered it: a lost audit row is logged instead. */
  async record(action: string, ctx: AuditContext = {}): Promise<void> {
    try {
      await this.repo.append({
        at: this.now(), action, actor: ctx.actor ?? null, ip: ctx.ip ?? null, target: ctx.target ?? null, detail: ctx.detail ?? {},
      });
    } catch (err) {
      this.onError(err);
    }
  }

  /** Newest first, AUDIT_PAGE_SIZE a page; empty filter values match everything. */
  async search(filter: AuditFilter, page: number) {
    const clean = Object.fromEntries(Object.entries(filter).filter(([, v]) => typeof v === 'string' && v !== '')) as AuditFilter;
    const { entries, total } = await this.repo.list(clean, (page - 1) * AUDIT_PAGE_SIZE, AUDIT_PAGE_SIZE);
    return { entries: entries.map(auditView), total };
  }
}
