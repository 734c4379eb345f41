import { AppError, MSG, type Reason } from '../errors/index.js';
import { CLI_EN, type CliKey } from './catalogue/en.js';
import { CLI_ZH_CN } from './catalogue/zh-CN.js';

/**
 * The CLI's refusals in English: every refusal reason of the service has its line here (the
 * type makes a missing one a compile error), so a Chinese `msg` reaches only an operator whose
 * locale is Chinese.
 */
export const CLI_REASON_TEXT: { readonly [R in Reason]: string } = {
  notJson: 'the request body must be JSON',
  badJson: 'the request body is not valid JSON',
  tooLarge: 'the request body is too large',
  notFound: 'no such endpoint',
  internal: 'internal error',
  rateLimited: 'too many requests, try again later',
  badParam: 'invalid parameter: ',
  tokenInvalid: 'the token is invalid or expired',
  notFirstParty: 'this token may not use this endpoint',
  banned: 'the account is banned',
  badUsername: 'invalid username: 3–32 of A-Z a-z 0-9 _',
  badPassword: 'invalid password: 8–128 characters',
  badEmail: 'invalid e-mail address',
  usernameTaken: 'username already taken',
  emailTaken: 'email already taken',
  badEmailCode: 'the e-mail code is wrong or expired',
  badCredentials: 'wrong username or password',
  secondFactorRequired: 'a second factor is required',
  badSecondFactor: 'wrong second-factor code',
  wrongOtpCode: 'wrong second-factor code',
  totpAlreadyOn: 'the authenticator is already on',
  totpNotSetUp: 'set up the authenticator secret first',
  totpNotOn: 'the authenticator is not on',
  passkeyFailed: 'passkey verification failed',
  passkeyTaken: 'this passkey is already registered',
  unknownPasskey: 'no such passkey',
  unknownApp: 'no such application',
  appDisabled: 'the application is disabled',
  notAppOwner: 'not the owner of this application',
  clientIdTaken: 'client id already taken',
  badRedirectUriFormat:
    'invalid redirect URI: an absolute URI without a fragment',
  badBackchannelLogoutUri:
    'invalid back-channel logout URI: an absolute https URI (http only on localhost) without a fragment',
  backchannelAppLimit:
    'the owner has as many applications with a back-channel logout URI as allowed',
  internalBackchannelLogoutUri:
    'the back-channel logout URI is an internal address (loopback, private or link-local); allowed only with WEBHOOK_ALLOW_PRIVATE=on',
  badOriginFormat: 'invalid origin',
  publicNoSecret: 'a public client has no secret',
  redirectNotAllowed: 'the redirect URI is not registered',
  pkceRequired: 'a public client must send code_challenge (PKCE)',
  s256Only: 'only code_challenge_method=S256 is supported',
  confidentialFields: 'client_id, client_secret and code are required',
  badSecret: 'wrong client_secret',
  verifierMissing: 'code_verifier is missing',
  verifierFailed: 'code_verifier does not match',
  codeInvalid: 'invalid authorization code',
  codeExpired: 'the authorization code has expired',
  codeUsed: 'the authorization code was already used',
  badScope: 'invalid scope',
  originNotAllowed: 'the origin is not allowed',
  devicePending: 'waiting for the user to confirm',
  deviceSlowDown: 'polling too fast',
  deviceDenied: 'the user denied the request',
  deviceInvalid: 'the device code is invalid or expired',
  reauthRequired: 'the owner must prove their identity again',
  sameEmail: 'the new e-mail address is the current one',
  unknownSession: 'no such session',
  adminOnly: 'administrators only',
  unknownUser: 'no such user',
  selfBan: 'an administrator cannot ban their own account',
  selfDemote: 'an administrator cannot remove the admin role from themselves',
  adminSelfDelete:
    'an administrator cannot delete their own account; another administrator must remove the admin role first',
  appRoleRequired:
    'this account holds none of the roles the application requires',
  unknownRole: 'no such role',
  builtinRole: 'player and admin are built in and cannot be removed',
  roleRequiredByApps: 'applications still require this role: ',
  lastAdmin:
    'this is the last administrator: give another account the admin role first',
  reasonRequired: 'a reason is required',
  appSuspended: 'the application was suspended by an administrator',
  dbUnavailable: 'the database is unavailable',
  authorizationTicketInvalid: 'the authorization request is no longer valid',
  unknownProvider: 'no such sign-in provider',
  unknownWebhook: 'no such webhook',
  unknownDelivery: 'no such delivery',
  providerIdTaken: 'provider id already taken',
  upstreamTicketInvalid:
    'the sign-in with the other account is no longer valid',
  upstreamLinkedElsewhere: 'this upstream account is linked to another user',
  upstreamAlreadyLinked: 'the user already has a link to this provider',
  upstreamNotLinked: 'the user has no link to this provider',
  upstreamNotEmailHolder:
    'only the account that holds the e-mail address may be linked',
  lastSignInMethod: 'this is the last way to sign in to the account',
  badMinecraftName: 'invalid Minecraft profile name: 1–16 of A-Z a-z 0-9 _',
  minecraftNameTaken: 'the Minecraft profile name is taken',
  minecraftProfileLimit:
    'the account owns as many Minecraft profiles as allowed',
  unknownMinecraftProfile: 'no such Minecraft profile',
  badTexture:
    'the texture must be a PNG: skins 64×32 or 64×64, capes 64×32 or 22×17, at most 64 KiB',
  captchaRequired: 'complete the CAPTCHA',
  registrationClosed: 'registration is closed',
  badInvite: 'the invite code is invalid or used up',
  emailDomainRefused: 'this e-mail domain may not register',
  unknownInvite: 'no such invite code',
};

/**
 * Chinese for an operator whose locale is Chinese (LC_ALL, else LC_MESSAGES, else LANG starting
 * with `zh`, the POSIX order), English otherwise.
 */
export function cliSpeaksChinese(
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return locale.toLowerCase().startsWith('zh');
}

/**
 * The line for a refusal in the operator's language: the service's own Chinese `msg`, or its
 * English line (with the field of a `badParam`). Other errors keep their message.
 */
export function cliMessage(
  err: unknown,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (!(err instanceof AppError)) return (err as Error).message;
  if (cliSpeaksChinese(env)) return err.msg;
  const text = CLI_REASON_TEXT[err.reason];
  // A msg that names what it concerns after its text (`参数错误：<field>`, the apps requiring
  // a role) keeps that part, which is already in names the operator knows.
  return err.reason === 'badParam' || err.reason === 'roleRequiredByApps'
    ? `${text}${err.msg.slice(MSG[err.reason].length)}`
    : text;
}

/**
 * One of the CLI's own lines in the operator's language (see cliSpeaksChinese), its
 * `{name}` placeholders filled from `params`.
 */
export function say(
  key: CliKey,
  params: Readonly<Record<string, string | number>> = {},
  env: NodeJS.ProcessEnv = process.env,
): string {
  const text = (cliSpeaksChinese(env) ? CLI_ZH_CN : CLI_EN)[key];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
