/** The e-mails in Simplified Chinese: the default, and the language of mails no request caused. */
export const MAIL_ZH_CN = {
  'mail.subjectPrefix': '【{site}】',
  'mail.code.register': '注册验证码',
  'mail.code.login': '登录验证码',
  'mail.code.verify': '邮箱验证码',
  'mail.code.reset_password': '重置密码验证码',
  'mail.code.change_email': '更换邮箱验证码',
  'mail.code.reauth': '身份验证码',
  'mail.code.text':
    '你的{purpose}是 {code}，{minutes} 分钟内有效。如非本人操作，请忽略本邮件。',
  'mail.emailChanged.subject': '邮箱已更换',
  'mail.emailChanged.text':
    '你的账号 {username} 的邮箱已于 {at} 更换为 {email}。此后重置密码的验证码将发往新邮箱。如非本人操作，请立即联系本站管理员。',
  'mail.passwordChanged.subject': '密码已更改',
  'mail.passwordChanged.text':
    '你的账号 {username} 的密码已于 {at} 更改。如非本人操作，请立即联系本站管理员。\n{passkeys}',
  'mail.passwordChanged.noPasskeys': '该账号没有通行密钥。',
  'mail.passwordChanged.passkeys':
    '以下通行密钥仍可直接登录该账号，不认识的请在“我的账号”（/account）页面删除：\n{list}',
  'mail.passwordChanged.passkey': '- {name}（添加于 {at}）',
  'mail.newSignIn.subject': '新设备登录提醒',
  'mail.newSignIn.text':
    '你的账号 {username} 于 {at} 在一个近期未使用过的浏览器或网络地址登录：\n' +
    '地址：{ip}\n浏览器：{userAgent}\n' +
    '如果这是你本人，无需处理。如果不是，请立即打开 {accountUrl} 退出该设备并修改密码。\n' +
    '不想再收到此类提醒，可在 {accountUrl} 的“登录记录”中关闭。',
  'mail.newSignIn.unknownBrowser': '未知',
} as const;

export type MailKey = keyof typeof MAIL_ZH_CN;
