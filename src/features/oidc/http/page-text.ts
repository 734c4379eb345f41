import type { FastifyRequest } from 'fastify';
import { MSG } from '../../../errors/index.js';
import { languageOf, type Language } from '../../../platform/i18n/language.js';
import { PAGE_MSG } from '../authorize-flow.js';
import { END_SESSION_MSG } from '../end-session.js';

/**
 * The texts of the pages the OpenID endpoints render themselves (authorization error, sign-out
 * confirmation, signed out), in the request's language like every other page. `{site}` is
 * SITE_NAME, `{username}` the signed-in person (already escaped by the caller).
 */
const TEXT = {
  'zh-CN': {
    authorizeFailed: '授权失败',
    authorizeRetry:
      '请返回应用重新发起登录；如果问题持续，请联系该应用的开发者。',
    unreadable: '请求无法解析',
    retry: '请返回应用重试。',
    signOutFailed: '退出登录失败',
    signedOut: '已退出登录',
    signedOutLine: '你已退出{site}。',
    signInAgain: '重新登录',
    confirmTitle: '退出登录？',
    confirmQuestion:
      '你正以 <strong>{username}</strong> 登录{site}。确定要退出登录吗？',
    confirm: '确认退出',
    cancel: '取消',
    roleRefusedTitle: '无权使用该应用',
    roleRefusedLine:
      '“{app}”只对持有特定角色的账号开放，你登录的账号 <strong>{username}</strong> 没有所需的角色。',
    roleRefusedHelp: '如需使用，请联系管理员为你的账号授予角色。',
    roleRefusedBack: '返回应用',
  },
  en: {
    authorizeFailed: 'Authorization failed',
    authorizeRetry:
      'Go back to the application and sign in again; if this keeps happening, contact its developer.',
    unreadable: 'The request could not be read',
    retry: 'Go back to the application and try again.',
    signOutFailed: 'Sign-out failed',
    signedOut: 'Signed out',
    signedOutLine: 'You have signed out of {site}.',
    signInAgain: 'Sign in again',
    confirmTitle: 'Sign out?',
    confirmQuestion:
      'You are signed in to {site} as <strong>{username}</strong>. Do you want to sign out?',
    confirm: 'Sign out',
    cancel: 'Cancel',
    roleRefusedTitle: 'You may not use this application',
    roleRefusedLine:
      '“{app}” is open only to accounts holding certain roles, and the account you are signed in with, <strong>{username}</strong>, holds none of them.',
    roleRefusedHelp:
      'To use it, ask an administrator to give your account a role.',
    roleRefusedBack: 'Back to the application',
  },
} as const satisfies Record<Language, Record<string, string>>;

export type PageText = Readonly<Record<keyof (typeof TEXT)['zh-CN'], string>>;

/** The refusals these pages show, in English; the Chinese text is the domain's own. */
const REFUSALS_EN: Readonly<Record<string, string>> = {
  [PAGE_MSG.missingClient]:
    'The authorization request lacks a parameter: client_id',
  [PAGE_MSG.unknownApp]: 'Unknown application',
  [PAGE_MSG.appDisabled]: 'This application has been disabled',
  [PAGE_MSG.badRedirect]:
    'The callback address is not registered for this application',
  [PAGE_MSG.missingRedirect]:
    'The authorization request lacks a parameter: redirect_uri',
  [PAGE_MSG.badTicket]:
    'The authorization request has expired; go back to the application and sign in again',
  [END_SESSION_MSG.badHint]: 'id_token_hint is not valid',
  [END_SESSION_MSG.clientMismatch]: 'client_id does not match id_token_hint',
  [END_SESSION_MSG.unregistered]:
    'The address to return to after signing out is not registered for this application, so you stay on this page.',
  [END_SESSION_MSG.staleConfirmation]:
    'The sign-out confirmation has expired; you are still signed in',
  [MSG.internal]: 'Internal server error',
};
const REPEATED_EN: ReadonlyArray<readonly [string, string]> = [
  [PAGE_MSG.repeated, 'A parameter of the authorization request is repeated: '],
  [
    END_SESSION_MSG.repeated,
    'A parameter of the sign-out request is repeated: ',
  ],
];

export function pageLanguage(request: FastifyRequest): Language {
  return languageOf(
    request.headers as { cookie?: string; 'accept-language'?: string },
  );
}

export function pageText(language: Language): PageText {
  return TEXT[language];
}

/** A refusal in the page's language; one this table does not know stays as it is. */
export function refusalIn(language: Language, message: string): string {
  if (language === 'zh-CN') return message;
  const known = REFUSALS_EN[message];
  if (known !== undefined) return known;
  const repeated = REPEATED_EN.find(([prefix]) => message.startsWith(prefix));
  return repeated ? repeated[1] + message.slice(repeated[0].length) : message;
}
