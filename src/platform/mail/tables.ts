/** The table of the mail outbox, as Kysely sees them: booleans are 0/1 and lists JSON text on both backends. */
import type { Generated } from 'kysely';

/** E-mails not yet sent, sealed, and a record of those given up (src/platform/mail/mail-outbox.ts). */
export interface MailOutboxTable {
  id: Generated<number>;
  message_enc: string;
  recipient_domain: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_until: Generated<number>;
  give_up_at: number;
  last_error: Generated<string>;
  last_attempt_at: number | null;
  created_at: number;
}

export interface MailTables {
  mail_outbox: MailOutboxTable;
}
