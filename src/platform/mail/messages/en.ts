import type { MailKey } from './zh-CN.js';

/** The e-mails in English, key for key the Chinese ones. */
export const MAIL_EN: { readonly [K in MailKey]: string } = {
  'mail.subjectPrefix': '[{site}] ',
  'mail.code.register': 'Registration code',
  'mail.code.login': 'Sign-in code',
  'mail.code.verify': 'E-mail verification code',
  'mail.code.reset_password': 'Password reset code',
  'mail.code.change_email': 'E-mail change code',
  'mail.code.reauth': 'Identity confirmation code',
  'mail.code.text':
    '{purpose}: {code}\nIt is valid for {minutes} minutes. If you did not ask for it, ignore this e-mail.',
  'mail.emailChanged.subject': 'E-mail address changed',
  'mail.emailChanged.text':
    'The e-mail address of your account {username} was changed to {email} at {at}. ' +
    'Password reset codes now go to the new address. If this was not you, contact the administrators of this site at once.',
  'mail.passwordChanged.subject': 'Password changed',
  'mail.passwordChanged.text':
    'The password of your account {username} was changed at {at}. If this was not you, contact the administrators of this site at once.\n{passkeys}',
  'mail.passwordChanged.noPasskeys': 'The account has no passkeys.',
  'mail.passwordChanged.passkeys':
    'These passkeys still sign in to the account directly; delete any you do not recognise on the "My account" page (/account):\n{list}',
  'mail.passwordChanged.passkey': '- {name} (added {at})',
  'mail.newSignIn.subject': 'Sign-in from a new device',
  'mail.newSignIn.text':
    'Your account {username} was signed in to at {at} from a browser or network address it had not used recently:\n' +
    'Address: {ip}\nBrowser: {userAgent}\n' +
    'If this was you, there is nothing to do. If not, open {accountUrl} at once to sign that device out and change your password.\n' +
    'To stop these notices, turn them off under "Sign-in history" at {accountUrl}.',
  'mail.newSignIn.unknownBrowser': 'unknown',
};
