import type { Passkey } from '../second-factor/index.js';
import type { EmailPurpose, User } from '../accounts/index.js';
import type { MailMessage } from '../../platform/mail/mailer.js';
import { mailText } from '../../platform/mail/mail-text.js';
import type { Language } from '../../platform/i18n/language.js';

/** `2030-06-01 08:00 UTC`: one time zone for every reader of the notice. */
const when = (ms: number): string =>
  `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * To the old address after an e-mail change. Password reset now mails the new address, so
 * the notice must not send the owner there: the administrators are the way back.
 */
export function emailChangedNotice(
  user: Pick<User, 'username' | 'email'>,
  newEmail: string,
  at: number,
  language?: Language,
): MailMessage {
  return {
    to: user.email,
    language,
    subject: mailText(language, 'mail.emailChanged.subject'),
    text: mailText(language, 'mail.emailChanged.text', {
      username: user.username,
      at: when(at),
      email: newEmail,
    }),
  };
}

/**
 * To the account's address after a password change or reset. Passkeys keep signing in
 * whatever the password is, so the notice lists them: one added by someone else stands out.
 */
export function passwordChangedNotice(
  user: Pick<User, 'username' | 'email'>,
  passkeys: Passkey[],
  at: number,
  language?: Language,
): MailMessage {
  const list = passkeys
    .map((p) =>
      mailText(language, 'mail.passwordChanged.passkey', {
        name: p.name,
        at: when(p.createdAt),
      }),
    )
    .join('\n');
  const passkeyLines =
    passkeys.length === 0
      ? mailText(language, 'mail.passwordChanged.noPasskeys')
      : mailText(language, 'mail.passwordChanged.passkeys', { list });
  return {
    to: user.email,
    language,
    subject: mailText(language, 'mail.passwordChanged.subject'),
    text: mailText(language, 'mail.passwordChanged.text', {
      username: user.username,
      at: when(at),
      passkeys: passkeyLines,
    }),
  };
}

/**
 * The message carrying an e-mail code, titled by what the code is for. It expires with the
 * code: a mail server down longer than that gets no useless code later.
 */
export function emailCodeMessage(
  to: string,
  purpose: EmailPurpose,
  code: string,
  validUntil: { at: number; minutes: number },
  language?: Language,
): MailMessage {
  const subject = mailText(language, `mail.code.${purpose}`);
  const text = mailText(language, 'mail.code.text', {
    purpose: subject,
    code,
    minutes: validUntil.minutes,
  });
  return { to, language, subject, text, expiresAt: validUntil.at };
}
