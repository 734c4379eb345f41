import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { DEFAULT_LANGUAGE, type Language } from '../i18n/language.js';
import { mailText } from './mail-text.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The language of the request that caused the message; without one, Chinese. */
  language?: Language | undefined;
  /**
   * When the message is worth nothing any more (an e-mail code that expired): not sent after
   * this time, however long the mail server was down. Unix milliseconds.
   */
  expiresAt?: number | undefined;
}

/**
 * How features send e-mail. `send` only queues the message (a fast local write, see
 * mail-outbox.ts): it never waits for the mail server, and it fails only when the message
 * could not be kept.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** What the outbox hands to the mail server: the envelope and text, nothing else. */
export type OutgoingMail = Pick<MailMessage, 'to' | 'subject' | 'text'>;

export interface MailTransport {
  /** Rejects when the server refused the message or did not answer in time. */
  deliver(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * Time limits of one SMTP conversation, so a server that takes the connection and never
 * answers holds a sending slot for seconds, not minutes; and one pool of reused connections.
 * SMTP_URL query parameters of the same names win (nodemailer reads them).
 */
export const SMTP_DEFAULTS: Readonly<Record<string, string>> = {
  pool: 'true',
  maxConnections: '5',
  connectionTimeout: '5000',
  greetingTimeout: '5000',
  socketTimeout: '10000',
};

/** `smtpUrl` with every SMTP_DEFAULTS entry it does not set itself added to its query. */
export function withSmtpDefaults(smtpUrl: string): string {
  const mark = smtpUrl.indexOf('?');
  const query = mark < 0 ? '' : smtpUrl.slice(mark + 1);
  const given = new URLSearchParams(query);
  const added = new URLSearchParams(
    Object.entries(SMTP_DEFAULTS).filter(([key]) => !given.has(key)),
  ).toString();
  if (added === '') return smtpUrl;
  const separator = mark < 0 ? '?' : query === '' ? '' : '&';
  return `${smtpUrl}${separator}${added}`;
}

/** Delivers through SMTP_URL over a pool of connections with time limits (SMTP_DEFAULTS). */
export function smtpTransport(smtpUrl: string, from: string): MailTransport {
  const transport: Transporter = nodemailer.createTransport(
    withSmtpDefaults(smtpUrl),
  );
  return {
    async deliver(m) {
      await transport.sendMail({
        from,
        to: m.to,
        subject: m.subject,
        text: m.text,
      });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Without SMTP_URL the message is written to the log so a developer can read the code; in
 * production (`revealText` false) only the envelope is logged, never the code. Written on the
 * next turn of the event loop, so the request that sent it does not wait for the log either.
 */
export function logMailer(log: Logger, revealText: boolean): Mailer {
  const write = (m: MailMessage) => {
    if (!revealText) {
      log.warn(
        { mail: { to: m.to, subject: m.subject } },
        'e-mail dropped: SMTP_URL is not set (text withheld in production)',
      );
      return;
    }
    // Development only: the code is shown on purpose; `mail` is not a redacted path.
    log.info(
      { mail: { to: m.to, subject: m.subject, text: m.text } },
      'e-mail (SMTP_URL not set, not sent)',
    );
  };
  return {
    async send(m) {
      setImmediate(write, m);
    },
  };
}

/**
 * Every message names the center the same way (SITE_NAME): in the subject, where the reader
 * sees it first, and as the signature.
 */
export function signedBy(
  siteNames: Readonly<Record<Language, string>>,
  mailer: Mailer,
): Mailer {
  return {
    // An account may have no address (one made by signing in with another account): its notices go nowhere.
    send: async (m) => {
      if (m.to === '') return;
      const site = siteNames[m.language ?? DEFAULT_LANGUAGE];
      await mailer.send({
        ...m,
        subject: `${mailText(m.language, 'mail.subjectPrefix', { site })}${m.subject}`,
        text: `${m.text}\n\n${site}`,
      });
    },
  };
}
