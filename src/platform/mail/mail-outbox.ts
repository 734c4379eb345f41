import type { Logger } from 'pino';
import { SecretBox } from '../crypto/secret-box.js';
import {
  LeaseLoop,
  retryAt,
  type RetrySchedule,
} from '../outbox/lease-loop.js';
import type {
  MailMessage,
  Mailer,
  MailTransport,
  OutgoingMail,
} from './mailer.js';

/** The SecretBox purpose of queued messages: part of every stored row's key, never renamed. */
export const MAIL_SEAL_PURPOSE = 'mail-outbox';

/**
 * Tries of one message: again after 5 s, 30 s, 2 min, 10 min, 30 min and 1 h, then every
 * 2 hours; given up 24 hours after it was written (docs/operations.md), or once it expired.
 */
export const MAIL_RETRIES: RetrySchedule = {
  delaysMs: [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000],
  everyMs: 2 * 3_600_000,
  giveUpAfterMs: 24 * 3_600_000,
};
/** Messages one instance sends at once: the connections of the SMTP pool. */
const MAIL_SLOTS = 5;
/** Far longer than one SMTP conversation can take, so a lease runs out only when its instance died. */
const LEASE_MS = 5 * 60_000;
/** How much of a mail server's reply is kept with a message that was given up. */
const ERROR_MAX = 500;

/** A queued message as the sender leases it. */
export interface QueuedMail {
  id: number;
  /** The sealed JSON of `OutgoingMail`. */
  sealed: string;
  domain: string;
  attempts: number;
  createdAt: number;
  giveUpAt: number;
}

/** The mail queue's table: a row per message not yet sent, and a non-secret record of those given up. */
export interface MailOutboxRepo {
  add(
    mail: { sealed: string; domain: string; giveUpAt: number },
    now: number,
  ): Promise<void>;
  /** Leases up to `limit` due messages until `now + leaseMs`; on PostgreSQL `FOR UPDATE SKIP LOCKED`. */
  claimDue(now: number, leaseMs: number, limit: number): Promise<QueuedMail[]>;
  /** The message was sent: its row goes. */
  remove(id: number): Promise<void>;
  retryLater(
    id: number,
    attempts: number,
    nextAttemptAt: number,
    error: string,
    now: number,
  ): Promise<void>;
  /** Drops the sealed message and keeps the recipient's domain, the tries and the last error. */
  giveUp(
    id: number,
    attempts: number,
    error: string,
    now: number,
  ): Promise<void>;
  /** Messages still to be sent. */
  pending(): Promise<number>;
  /** Deletes the records of messages given up before `before`. */
  purgeFailures(before: number): Promise<number>;
}

export interface MailOutboxDeps {
  repo: MailOutboxRepo;
  transport: MailTransport;
  jwtSecret: string;
  now: () => number;
  log: Logger;
}

/** The part after the last `@`: what a failure record keeps of the recipient. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/** A mail server's error without the addresses it may quote (their domains stay). */
function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text
    .replace(/[^\s<>"'(),;:@]+@([A-Za-z0-9.-]+)/g, '…@$1')
    .slice(0, ERROR_MAX);
}

/** The server refused the recipient itself (5xx): sending the same message again cannot help. */
function refusedForGood(err: unknown): boolean {
  const { code, responseCode } = err as {
    code?: unknown;
    responseCode?: unknown;
  };
  return (
    code === 'EENVELOPE' &&
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600
  );
}

/**
 * Every e-mail goes through this outbox. `send` seals the message (to, subject, text: codes
 * are in the text) under a key of its own derived from JWT_SECRET, writes it to the table and
 * wakes the sender, and returns: no request waits for the mail server. The sender (a
 * LeaseLoop, as the webhook outbox has) leases due rows, so of several instances one sends
 * each message; a sent message's row is deleted, a failed one is tried again with backoff
 * (MAIL_RETRIES) and, once given up, keeps only its recipient's domain, tries and last error.
 * Stopping leaves what is queued in the table for the next start.
 */
export class MailOutbox implements Mailer {
  private readonly box: SecretBox;
  private readonly loop: LeaseLoop<QueuedMail>;

  constructor(private readonly deps: MailOutboxDeps) {
    this.box = new SecretBox(deps.jwtSecret, MAIL_SEAL_PURPOSE);
    this.loop = new LeaseLoop(
      [
        {
          slots: MAIL_SLOTS,
          claim: (free) => deps.repo.claimDue(deps.now(), LEASE_MS, free),
          deliver: (mail) => this.deliver(mail),
        },
      ],
      deps.log,
      'e-mail',
    );
  }

  async send(m: MailMessage): Promise<void> {
    const now = this.deps.now();
    const outgoing: OutgoingMail = {
      to: m.to,
      subject: m.subject,
      text: m.text,
    };
    const giveUpAt = Math.min(
      now + MAIL_RETRIES.giveUpAfterMs,
      m.expiresAt ?? Number.MAX_SAFE_INTEGER,
    );
    await this.deps.repo.add(
      {
        sealed: this.box.seal(JSON.stringify(outgoing)),
        domain: domainOf(m.to),
        giveUpAt,
      },
      now,
    );
    this.loop.wake();
  }

  start(pollMs = 1_000): void {
    this.loop.start(pollMs);
  }

  /** Waits for the messages under way, then closes the SMTP connections. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.deps.transport.close();
  }

  private async deliver(mail: QueuedMail): Promise<void> {
    const { repo, now, log } = this.deps;
    let outgoing: OutgoingMail;
    try {
      outgoing = JSON.parse(this.box.open(mail.sealed)) as OutgoingMail;
    } catch {
      // Sealed under another JWT_SECRET: no instance of this one can ever read it.
      await repo.giveUp(
        mail.id,
        mail.attempts,
        'the sealed message does not open with this JWT_SECRET',
        now(),
      );
      log.error(
        { mail: { id: mail.id, domain: mail.domain } },
        'e-mail given up: sealed under another JWT_SECRET',
      );
      return;
    }
    try {
      await this.deps.transport.deliver(outgoing);
    } catch (err) {
      await this.failed(mail, err);
      return;
    }
    await repo.remove(mail.id);
  }

  private async failed(mail: QueuedMail, err: unknown): Promise<void> {
    const at = this.deps.now();
    const attempts = mail.attempts + 1;
    const error = errorText(err);
    const next = refusedForGood(err)
      ? null
      : retryAt(MAIL_RETRIES, attempts, mail.createdAt, at);
    const about = {
      mail: { id: mail.id, domain: mail.domain, attempts },
      error,
    };
    if (next === null || next > mail.giveUpAt) {
      await this.deps.repo.giveUp(mail.id, attempts, error, at);
      this.deps.log.error(
        about,
        'e-mail given up: not sent within its retry window',
      );
      return;
    }
    await this.deps.repo.retryLater(mail.id, attempts, next, error, at);
    this.deps.log.warn(
      { ...about, retryAt: new Date(next).toISOString() },
      'e-mail not sent, tried again later',
    );
  }
}
