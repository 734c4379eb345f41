/** The sign-in history's texts (/account and a user's admin page). */
export const signIns = {
  'signIns.method.password': '密码',
  'signIns.method.email_code': '邮箱验证码',
  'signIns.method.passkey': '通行密钥',
  'signIns.method.device': '设备授权',
  'signIns.method.oidc': '第三方应用（OpenID Connect）',
  'signIns.method.upstream': '第三方账号（{provider}）',
  'signIns.none': '90 天内没有登录记录。',
  'signIns.time': '时间',
  'signIns.method': '方式',
  'signIns.ip': 'IP',
  'signIns.browser': '浏览器',
  'signIns.noticeOn': '已开启新设备登录提醒',
  'signIns.noticeOff': '已关闭新设备登录提醒',
  'signIns.noticeSwitch': ' 在新的浏览器或网络地址登录时发邮件提醒我',
  'signIns.title': '登录记录',
  'signIns.hint':
    '最近 90 天内的最后 50 次登录。不认识的登录请在“登录设备”中退出并修改密码。',
  'signIns.adminTitle': '登录记录（最近 {count} 次）',
} as const;
