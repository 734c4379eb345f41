import type { Passkey } from '../second-factor/index.js';
import type { EmailPurpose, User } from './repository.js';
import type { MailMessage } from '../../platform/mail/mailer.js';

/** `2030-06-01 08:00 UTC`: one time zone for every reader of the notice. */
const when = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * To the old address after an e-mail change. Password reset now mails the new address, so
 * the notice must not send the owner there: the administrators are the way back.
 */
export function emailChangedNotice(user: Pick<User, 'username' | 'email'>, newEmail: string, at: number): MailMessage {
  return {
    to: user.email,
    subject: '邮箱已更换',
    text: `你的账号 ${user.username} 的邮箱已于 ${when(at)} 更换为 ${newEmail}。`
      + '此后重置密码的验证码将发往新邮箱。如非本人操作，请立即联系本站管理员。',
  };
}

/**
 * To the account's address after a password change or reset. Passkeys keep signing in
 * whatever the password is, so the notice lists them: one added by someone else stands out.
 */
export function passwordChangedNotice(user: Pick<User, 'username' | 'email'>, passkeys: Passkey[], at: number): MailMessage {
  const list = passkeys.length === 0
    ? '该账号没有通行密钥。'
    : `以下通行密钥仍可直接登录该账号，不认识的请在“我的账号”（/account）页面删除：\n${passkeys.map((p) => `- ${p.name}（添加于 ${when(p.createdAt)}）`).join('\n')}`;
  return {
    to: user.email,
    subject: '密码已更改',
    text: `你的账号 ${user.username} 的密码已于 ${when(at)} 更改。如非本人操作，请立即联系本站管理员。\n${list}`,
  };
}

/** The subject of each e-mail code's message, by what the code is for. */
export const EMAIL_CODE_SUBJECTS: Record<EmailPurpose, string> = {
  register: '注册验证码',
  login: '登录验证码',
  verify: '邮箱验证码',
  reset_password: '重置密码验证码',
  change_email: '更换邮箱验证码',
  reauth: '身份验证码',
};
