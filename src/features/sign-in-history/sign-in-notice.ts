import type { MailMessage } from '../../platform/mail/mailer.js';
import { mailText } from '../../platform/mail/mail-text.js';
import type { Language } from '../../platform/i18n/language.js';

/** `2030-06-01 08:00 UTC`: one time zone for every reader of the notice. */
const when = (ms: number): string =>
  `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export interface NoticeFacts {
  username: string;
  email: string;
  at: number;
  ip: string;
  userAgent: string;
  /** `{BASE_URL}/account`, where the sessions can be ended. */
  accountUrl: string;
}

/**
 * To the account's address after a sign-in from a browser or address it had not used for 90
 * days. It names what the reader can recognise, and where to end a session that is not theirs.
 */
export function newSignInNotice(
  f: NoticeFacts,
  language?: Language,
): MailMessage {
  return {
    to: f.email,
    language,
    subject: mailText(language, 'mail.newSignIn.subject'),
    text: mailText(language, 'mail.newSignIn.text', {
      username: f.username,
      at: when(f.at),
      ip: f.ip,
      userAgent:
        f.userAgent || mailText(language, 'mail.newSignIn.unknownBrowser'),
      accountUrl: f.accountUrl,
    }),
  };
}
