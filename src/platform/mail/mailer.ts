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
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * Delivers through SMTP_URL. Without it the message is written to the log so a developer can
 * read the code; in production (`revealText` false) only the envelope is logged, never the code.
 */
export function createMailer(smtpUrl: string | undefined, from: string, log: Logger, revealText = true): Mailer {
  if (!smtpUrl) {
    return {
      async send(m) {
        if (!revealText) {
          log.warn({ mail: { to: m.to, subject: m.subject } }, 'e-mail dropped: SMTP_URL is not set (text withheld in production)');
          return;
        }
        // Development only: the code is shown on purpose; `mail` is not a redacted path.
        log.info({ mail: { to: m.to, subject: m.subject, text: m.text } }, 'e-mail (SMTP_URL not set, not sent)');
      },
      close() {},
    };
  }
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(m) {
      await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
    },
    close() {
      transport.close();
    },
  };
}

/**
 * Every message names the center the same way (SITE_NAME): in the subject, where the reader
 * sees it first, and as the signature.
 */
export function signedBy(siteNames: Readonly<Record<Language, string>>, mailer: Mailer): Mailer {
  return {
    // An account may have no address (one made by signing in with another account): its notices go nowhere.
    send: async (m) => {
      if (m.to === '') return;
      const site = siteNames[m.language ?? DEFAULT_LANGUAGE];
      await mailer.send({ ...m, subject: `${mailText(m.language, 'mail.subjectPrefix', { site })}${m.subject}`, text: `${m.text}\n\n${site}` });
    },
    close: () => mailer.close(),
  };
}
