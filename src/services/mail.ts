import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Delivers through SMTP_URL; without it the message is written to the log (development). */
export function createMailer(smtpUrl: string | undefined, from: string, log: Logger): Mailer {
  if (!smtpUrl) {
    return {
      async send(m) {
        // Codes appear here only because no SMTP server is configured; `mail` is not redacted on purpose.
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
