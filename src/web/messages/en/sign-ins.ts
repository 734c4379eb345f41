import type { signIns as zh } from '../zh-CN/sign-ins.js';
import type { Translation } from '../messages.js';

export const signIns: Translation<typeof zh> = {
  'signIns.method.password': 'Password',
  'signIns.method.email_code': 'E-mail code',
  'signIns.method.passkey': 'Passkey',
  'signIns.method.device': 'Device sign-in',
  'signIns.method.oidc': 'Third-party app (OpenID Connect)',
  'signIns.method.upstream': 'Third-party account ({provider})',
  'signIns.none': 'No sign-ins in the last 90 days.',
  'signIns.time': 'Time',
  'signIns.method': 'Method',
  'signIns.ip': 'IP',
  'signIns.browser': 'Browser',
  'signIns.noticeOn': 'E-mail about sign-ins from new devices turned on',
  'signIns.noticeOff': 'E-mail about sign-ins from new devices turned off',
  'signIns.noticeSwitch':
    ' E-mail me when my account signs in from a new browser or network address',
  'signIns.title': 'Sign-in history',
  'signIns.hint':
    'The last 50 sign-ins of the last 90 days. If you do not recognise one, sign it out under “Signed-in devices” and change your password.',
  'signIns.adminTitle': 'Sign-in history (last {count})',
};
