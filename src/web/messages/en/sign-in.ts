import type { signIn as zh } from '../zh-CN/sign-in.js';
import type { Translation } from '../messages.js';

export const signIn: Translation<typeof zh> = {
  'login.title': 'Sign in',
  'login.usernameOrEmail': 'Username or e-mail',
  'login.submit': 'Sign in',
  'login.codeSent': 'Code sent. Check your e-mail (valid for 10 minutes)',
  'login.sixDigits': '6 digits',
  'login.sendCode': 'Send code',
  'login.byPassword': 'Password',
  'login.byCode': 'E-mail code',
  'login.toRegister': 'No account? Create one',
  'login.forgot': 'Forgot password',
  'second.placeholder': '6 digits or a recovery code',
  'second.verify': 'Verify',
  'second.hint':
    'Open your authenticator app and enter the 6 digits it shows, or enter a recovery code',
  'second.title': 'Two-step verification',
  'second.intro': 'This account has two-step verification on.',
  'second.back': 'Back, sign in with another account',
  'passkey.signIn': 'Sign in with a passkey',
  'passkey.failed': 'Could not sign in with a passkey, please try again',
  'upstream.or': 'Or sign in with another account',
  'upstream.button': 'Sign in with {name}',
  'upstream.title': 'Sign in with another account',
  'upstream.back': 'Back to sign-in',
  'upstream.unfinished': 'The sign-in did not finish. Please try again.',
  'upstream.problem.state':
    'This sign-in request has expired or was not started in this browser. Please go back to the sign-in page and start again.',
  'upstream.problem.unavailable':
    'This way of signing in is not available (an administrator may have turned it off).',
  'upstream.problem.denied': 'You cancelled signing in with {provider}.',
  'upstream.problem.provider':
    '{provider} could not complete the sign-in. Please try again later.',
  'upstream.problem.network':
    '{provider} cannot be reached right now. Please try again later.',
  'upstream.problem.notMember':
    'Only members of the chosen Discord server can sign in with {provider}.',
  'upstream.problem.linkedElsewhere':
    'This {provider} account is already linked to another account.',
  'upstream.problem.alreadyLinked':
    'Your account is already linked to {provider}; unlink it first.',
  'upstream.problem.notYourLink':
    'This {provider} account is not linked to your account, so it cannot confirm it is you.',
  'upstream.problem.emailRequired':
    'Signing up needs an e-mail address, and {provider} gave no verified one. Please sign up with your e-mail address first, then link {provider} on your account page.',
  'upstream.progress': 'Signing in with {provider}…',
  'upstream.linkTitle': 'Link an existing account',
  'upstream.emailExists':
    'The e-mail address {email} is already used by an account.',
  'upstream.linkHint':
    'If it is yours, sign in to it first: your {provider} account will then be linked to it, and you can sign in with {provider} from then on. For your safety, nothing is linked by the e-mail address alone.',
  'upstream.notMine': 'Not my account, back to sign-in',
  'upstream.confirmHint':
    'You are signed in. For your safety, confirm it is you once more before {provider} is linked.',
  'upstream.confirmLink': 'Confirm linking {provider}',
  'register.title': 'Create an account',
  'register.usernameRule': 'A username is 3–32 letters, digits or underscores',
  'register.displayNameMax': 'A display name is at most 64 characters',
  'register.emailFormat': 'This is not a valid e-mail address',
  'register.passwordLength': 'A password is 8 to 128 characters',
  'register.sixDigits': 'The code is 6 digits',
  'register.submit': 'Create account',
  'register.codeRequiredHint': 'An e-mail code is required to sign up',
  'register.codeOptionalHint':
    'With the code your e-mail is verified now; you can also verify it later',
  'register.usernameHint': '3–32 letters, digits or underscores',
  'register.passwordHint': '8–128 characters',
  'register.toLogin': 'Have an account? Sign in',
  'register.closed': 'Registration is closed',
  'register.inviteCode': 'Invite code',
  'register.inviteHint': 'This site is invite-only',
  'captcha.label': 'I am not a robot',
  'captcha.verified': 'Verified',
  'captcha.verifying': 'Verifying…',
  'captcha.waitAlert': 'Verifying, please wait…',
  'captcha.error': 'Verification failed, please try again',
  'captcha.expired': 'Verification expired, please try again',
  'captcha.required': 'Please complete the verification',
  'reset.title': 'Reset password',
  'reset.passwordHint':
    '8–128 characters; sign-ins on your other devices end when it is reset',
  'reset.done':
    'Your password was reset. Sign in with the new one. Passkeys do not depend on the password and still sign in; the notice e-mail lists the account’s passkeys: remove any you do not recognise under My account',
  'reset.back': 'Back to sign-in',
  'passkey.ipHost':
    'Passkeys are not available at an IP address ({host}): a passkey belongs to a domain name, and browsers neither make nor use one for an IP address.',
  'passkey.ipHostLocal':
    'On this computer, open {address} (the server’s BASE_URL must name it too).',
  'passkey.ipHostDomain':
    'Open this site by its domain name (the server’s BASE_URL must name it too).',
};
