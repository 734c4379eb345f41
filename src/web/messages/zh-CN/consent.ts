/** The consent page (/authorize) and the device sign-in page (/device). */
export const consent = {
  'consent.title': '授权登录',
  'consent.missingParam': '授权链接缺少参数：{name}',
  'consent.agree': '同意',
  'consent.deny': '拒绝',
  'consent.basicProfile': '仅读取你的基本资料（用户名、昵称、邮箱）',
  'consent.asks': '「{app}」请求使用你的账号登录，并获得以下权限：',
  'consent.currentAccount': '当前账号：',
  'consent.usernameAside': '（{username}）',
  'consent.returnTo': '同意后你将被带回：',
  'consent.switchAccount': '切换账号',
  'scope.openid': '确认你的身份',
  'scope.profile': '读取你的用户名和昵称',
  'scope.email': '读取你的邮箱地址',
  'scope.offline_access': '在你离开后保持登录（刷新令牌）',
  'scope.roles':
    '读取你在本站的角色（如管理员、版主），应用可据此决定你能做什么',
  'device.title': '设备登录',
  'device.roleRefusedTitle': '无权使用该应用',
  'device.roleRefused':
    '“{app}”只对持有特定角色的账号开放，你登录的账号 {username} 没有所需的角色。',
  'device.roleRefusedHelp':
    '如需使用，请联系管理员为你的账号授予角色。你可以拒绝此请求，让设备停止等待。',
  'device.justNow': '刚刚',
  'device.minutesAgo': '{n} 分钟前',
  'device.firstParty':
    '这是{site}本身的登录：确认后，该设备将获得你账号的完全访问权限',
  'device.firstPartyMore': '（可以管理你的应用、以你的身份登录其他应用）。',
  'device.grant': '确认后，该应用将以你的身份（{username}）登录。',
  'device.asks': '「{app}」请求登录',
  'device.clientId': '应用标识：',
  'device.started': '请求发起于 {time}（{ago}）',
  'device.warning':
    '只有当这个验证码正显示在你自己面前的设备屏幕上时，才点「确认登录」。如果验证码或链接是别人发给你的，请点「拒绝」：对方可能正在骗取你的账号。',
  'device.next': '下一步',
  'device.approve': '确认登录',
  'device.deny': '拒绝',
  'device.enterCode': '请输入设备上显示的 6 位数字验证码',
  'device.codeLabel': '设备上显示的验证码',
  'device.denied': '已拒绝「{app}」的登录请求。',
  'device.approved':
    '已允许「{app}」使用账号 {username} 登录，请回到设备上继续。',
  'device.intro':
    '游戏、启动器或桌面程序会显示一个 6 位验证码。输入后点「下一步」，核对请求信息，再点「确认登录」。',
} as const;
