/** The table of the audit trail, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor: string | null;
  ip: string | null;
  action: string;
  target: string | null;
  detail: string;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
