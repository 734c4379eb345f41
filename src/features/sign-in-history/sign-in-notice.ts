import type { MailMessage } from '../../platform/mail/mailer.js';

/** `2030-06-01 08:00 UTC`: one time zone for every reader of the notice. */
const when = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

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
export function newSignInNotice(f: NoticeFacts): MailMessage {
  return {
    to: f.email,
    subject: '新设备登录提醒',
    text: `你的账号 ${f.username} 于 ${when(f.at)} 在一个近期未使用过的浏览器或网络地址登录：\n`
      + `地址：${f.ip}\n浏览器：${f.userAgent || '未知'}\n`
      + `如果这是你本人，无需处理。如果不是，请立即打开 ${f.accountUrl} 退出该设备并修改密码。\n`
      + `不想再收到此类提醒，可在 ${f.accountUrl} 的“登录记录”中关闭。`,
  };
}
