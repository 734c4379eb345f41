/** Repository interfaces of the audit log: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */

export interface AuditEntry {
  id: number;
  at: number;
  actor: string | null;
  ip: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
}

export interface AuditRepo {
  append(entry: Omit<AuditEntry, 'id'>): Promise<void>;
  /** Newest first; `from`/`to` (ms) bound `at` inclusively. */
  list(
    filter: AuditListFilter,
    offset: number,
    limit: number,
  ): Promise<{ entries: AuditEntry[]; total: number }>;
  /** Entries of `action` per UTC day (`YYYY-MM-DD`) since `since`, for the dashboard. */
  countPerDay(
    action: string,
    since: number,
  ): Promise<Array<{ day: string; count: number }>>;
}

export interface AuditListFilter {
  action?: string;
  actor?: string;
  target?: string;
  from?: number;
  to?: number;
}
