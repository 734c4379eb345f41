import type { consent as zh } from '../zh-CN/consent.js';
import type { Translation } from '../messages.js';

export const consent: Translation<typeof zh> = {
  'consent.title': 'Authorize',
  'consent.missingParam': 'The authorization link lacks a parameter: {name}',
  'consent.agree': 'Allow',
  'consent.deny': 'Deny',
  'consent.basicProfile':
    'Read your basic profile only (username, display name, e-mail)',
  'consent.asks':
    '“{app}” wants to sign you in with your account and get these permissions:',
  'consent.currentAccount': 'Signed in as: ',
  'consent.usernameAside': ' ({username})',
  'consent.returnTo': 'If you allow, you will be sent back to: ',
  'consent.switchAccount': 'Switch account',
  'scope.openid': 'Confirm who you are',
  'scope.profile': 'Read your username and display name',
  'scope.email': 'Read your e-mail address',
  'scope.offline_access': 'Stay signed in after you leave (refresh token)',
  'scope.roles':
    'See your roles here (such as administrator or moderator), which the app may use to decide what you can do',
  'device.roleRefusedTitle': 'You may not use this application',
  'device.roleRefused':
    '“{app}” is open only to accounts holding certain roles, and the account you are signed in with, {username}, holds none of them.',
  'device.roleRefusedHelp':
    'To use it, ask an administrator to give your account a role. You can refuse the request so the device stops waiting.',
  'device.title': 'Device sign-in',
  'device.justNow': 'just now',
  'device.minutesAgo': '{n} min ago',
  'device.firstParty':
    'This is a sign-in to {site} itself: once confirmed, the device gets full access to your account',
  'device.firstPartyMore':
    ' (it can manage your apps and sign in to other apps as you).',
  'device.grant': 'Once confirmed, the app signs in as you ({username}).',
  'device.asks': '“{app}” asks to sign in',
  'device.clientId': 'Client ID: ',
  'device.started': 'Requested at {time} ({ago})',
  'device.warning':
    'Only click “Confirm sign-in” if this code is shown on the screen of a device in front of you. If someone else sent you the code or the link, click “Deny”: they may be trying to take over your account.',
  'device.next': 'Next',
  'device.approve': 'Confirm sign-in',
  'device.deny': 'Deny',
  'device.enterCode': 'Enter the 6-digit code shown on the device',
  'device.codeLabel': 'Code shown on the device',
  'device.denied': 'The sign-in request of “{app}” was denied.',
  'device.approved':
    '“{app}” may now sign in as {username}. Go back to the device to continue.',
  'device.intro':
    'A game, launcher or desktop program shows a 6-digit code. Enter it, click “Next”, check the request, then click “Confirm sign-in”.',
};
