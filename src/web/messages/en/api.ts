/**
 * The v1 API answers in Chinese (`msg`, docs/api.md §1); an English page shows each of those
 * answers in English. Keyed by the API's text; test/unit/catalogues.test.ts checks that every
 * refusal of the service has its line. `参数错误：<field>` is handled apart (field names).
 */
export const API_MESSAGES_EN: Readonly<Record<string, string>> = {
  '请求体必须是 JSON': 'The request body must be JSON',
  '请求体不是合法的 JSON': 'The request body is not valid JSON',
  请求体过大: 'The request is too large',
  接口不存在: 'No such endpoint',
  服务器内部错误: 'Internal server error',
  '请求过于频繁，请稍后再试': 'Too many attempts, please try again later',
  令牌无效或已过期: 'Your sign-in has expired, please sign in again',
  该令牌无权访问此接口: 'This sign-in may not do that',
  账号已被封禁: 'This account is banned',
  用户名格式不正确: 'A username is 3–32 letters, digits or underscores',
  '密码长度需为 8 到 128 个字符': 'A password is 8 to 128 characters',
  邮箱格式不正确: 'This is not a valid e-mail address',
  用户名已被占用: 'This username is taken',
  邮箱已被注册: 'This e-mail address is already registered',
  验证码错误或已过期: 'The code is wrong or has expired',
  用户名或密码错误: 'Wrong username or password',
  需要两步验证: 'Two-step verification is required',
  两步验证码错误: 'Wrong authenticator code',
  两步验证已开启: 'Two-step verification is already on',
  请先生成两步验证密钥: 'Set up the authenticator first',
  两步验证未开启: 'Two-step verification is not on',
  通行密钥验证失败: 'Passkey verification failed',
  该通行密钥已登记: 'This passkey is already registered',
  通行密钥不存在: 'No such passkey',
  未知的应用: 'Unknown application',
  该应用已被停用: 'This application is disabled',
  无权操作该应用: 'You do not own this application',
  应用标识已存在: 'This client ID is taken',
  回调地址格式不正确:
    'A redirect URI is an absolute address without a fragment',
  后台退出通知地址格式不正确:
    'The back-channel logout URI must be an absolute https address (http only on localhost) without a fragment',
  设置后台退出通知地址的应用数量已达上限:
    'The owner has as many applications with a back-channel logout URI as allowed',
  后台退出通知地址不能是内部网络地址:
    'The back-channel logout URI must not be an internal address (loopback, private or link-local)',
  来源格式不正确: 'Invalid origin',
  公开客户端没有密钥: 'A public client has no secret',
  回调地址不在白名单内:
    'The redirect URI is not registered for this application',
  '公开客户端必须提供 code_challenge(PKCE)':
    'A public client must send code_challenge (PKCE)',
  '仅支持 code_challenge_method=S256':
    'Only code_challenge_method=S256 is supported',
  '请提供 client_id、client_secret 与 code':
    'client_id, client_secret and code are required',
  'client_secret 不正确': 'Wrong client_secret',
  '缺少 code_verifier': 'code_verifier is missing',
  'code_verifier 校验失败': 'code_verifier does not match',
  授权码无效: 'Invalid authorization code',
  授权码已过期: 'The authorization code has expired',
  授权码已被使用: 'The authorization code was already used',
  申请的权限范围无效: 'Invalid scope',
  来源不在白名单内: 'This origin is not allowed',
  等待用户确认: 'Waiting for the user to confirm',
  请求过于频繁: 'Too many requests',
  用户拒绝了授权: 'The user denied the request',
  设备码无效或已过期: 'The device code is wrong or has expired',
  需要重新验证身份: 'Please confirm it is you',
  新邮箱与当前邮箱相同: 'The new e-mail address is the current one',
  会话不存在: 'No such session',
  需要管理员权限: 'Administrators only',
  用户不存在: 'No such user',
  不能封禁自己的账号: 'You cannot ban your own account',
  不能移除自己的管理员角色:
    'You cannot remove the administrator role from yourself',
  '管理员不能注销自己的账号，请先由其他管理员移除管理员角色':
    'An administrator cannot delete their own account: ask another administrator to remove your administrator role first',
  至少需要保留一名管理员: 'At least one administrator must remain',
  无权使用该应用: 'You may not use this application',
  未知的角色: 'No such role',
  内置角色不能删除: 'A built-in role cannot be removed',
  '该角色仍被应用要求，不能删除：':
    'Applications still require this role, so it cannot be removed: ',
  请填写原因: 'Please give a reason',
  该应用已被管理员停用: 'This application was suspended by an administrator',
  数据库不可用: 'The database is unavailable',
  '授权请求已失效，请返回应用重新登录':
    'The authorization request has expired; go back to the application and sign in again',
  未知的登录方式: 'Unknown sign-in method',
  登录方式标识已存在: 'This sign-in method ID is taken',
  '第三方登录已失效，请重新登录':
    'The sign-in with the other account has expired; please sign in again',
  该第三方账号已绑定其他账号: 'That account is linked to another user',
  已绑定过该登录方式: 'This sign-in method is already linked',
  未绑定该登录方式: 'This sign-in method is not linked',
  只能绑定到使用该邮箱的账号:
    'It can only be linked to the account that uses this e-mail address',
  '这是账号唯一的登录方式，请先设置密码或绑定其他登录方式':
    'This is the only way to sign in to the account: set a password or link another sign-in method first',
  'Webhook 不存在': 'No such webhook',
  投递记录不存在: 'No such delivery',
  '角色名需为 1 到 16 位字母、数字或下划线':
    'A profile name is 1 to 16 letters, digits or underscores',
  角色名已被占用: 'That profile name is taken',
  角色数量已达上限: 'The account has as many profiles as allowed',
  角色不存在: 'No such profile',
  '材质须为 PNG 图片，皮肤 64×32 或 64×64，披风 64×32 或 22×17':
    'A texture must be a PNG: skins 64×32 or 64×64, capes 64×32 or 22×17',
  请完成人机验证: 'Please complete the verification',
  当前不开放注册: 'Registration is closed',
  邀请码无效或已用完: 'The invite code is invalid or used up',
  该邮箱域名不允许注册: 'This e-mail domain may not register',
  邀请码不存在: 'No such invite code',
};
