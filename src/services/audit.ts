import type { AuditRepo } from '../storage/types.js';

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
}
