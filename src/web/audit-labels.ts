/**
 * Readable names for the administration pages: roles and audit actions are stored as codes
 * (searchable, stable in the CSV export); the pages show these words and keep the code beside.
 */
const ROLE_LABELS: Readonly<Record<string, string>> = { player: '玩家', admin: '管理员' };

/** Every action the service records (grep `audit.record(` in src/services). */
export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  'user.register': '注册账号',
  'user.create': '创建用户',
  'user.delete': '注销账号',
  'user.rename': '修改昵称',
  'user.roles': '修改角色',
  'user.ban': '封禁用户',
  'user.unban': '解封用户',
  'user.email_change': '更换邮箱',
  'user.password_change': '修改密码',
  'user.password_reset': '重置密码',
  'user.force_reset': '强制重置密码',
  'users.export': '导出用户',
  'users.import': '导入用户',
  'login.success': '登录成功',
  'login.failure': '登录失败',
  logout: '退出登录',
  'logout.all': '退出全部登录',
  'session.end': '结束一个登录',
  'session.end_others': '结束其他登录',
  'email_code.sent': '发送邮箱验证码',
  'code.replay': '授权码被重复使用',
  'refresh.reuse': '刷新令牌被重复使用',
  'game_token.issue': '签发游戏令牌',
  'device.approve': '确认设备登录',
  'device.deny': '拒绝设备登录',
  'device.token': '设备登录完成',
  'totp.enable': '开启两步验证',
  'totp.disable': '关闭两步验证',
  'recovery_codes.regenerate': '重新生成恢复码',
  'passkey.add': '添加通行密钥',
  'passkey.remove': '删除通行密钥',
  'second_factor.admin_remove': '管理员移除两步验证',
  'app.create': '创建应用',
  'app.update': '修改应用',
  'app.rotate_secret': '重置应用密钥',
  'app.enable': '启用应用',
  'app.disable': '停用应用',
  'app.admin_enable': '管理员启用应用',
  'app.admin_disable': '管理员停用应用',
  'oidc.consent': '同意授权',
  'oidc.consent.deny': '拒绝授权',
  'oidc.consent.revoke': '撤销授权',
  'oidc.end_session': '从应用退出登录',
  'keys.rotate': '轮换签名密钥',
  'provider.add': '添加登录方式',
  'provider.update': '修改登录方式',
  'provider.enable': '启用登录方式',
  'provider.disable': '停用登录方式',
  'provider.remove': '删除登录方式',
  'identity.linked': '绑定第三方账号',
  'identity.unlinked': '解除第三方账号绑定',
  'reauth.upstream': '通过第三方账号验证身份',
  'minecraft.authenticate': '启动器登录（我的世界）',
  'minecraft.profile.create': '创建我的世界角色',
  'minecraft.profile.rename': '我的世界角色改名',
  'minecraft.profile.delete': '删除我的世界角色',
  'minecraft.texture.upload': '上传皮肤或披风',
  'minecraft.texture.model': '更改皮肤模型',
  'minecraft.texture.delete': '删除皮肤或披风',
};

/** 玩家 / 管理员 for the known roles; any other role is shown as it is named. */
export const roleLabel = (role: string): string => ROLE_LABELS[role] ?? role;

/** The phrase of an action, or the code itself for one this page does not know yet. */
export const auditActionLabel = (action: string): string => AUDIT_ACTION_LABELS[action] ?? action;

/** `key: value` lines of an audit entry's detail; lists joined, nested values as compact JSON. */
export function detailLines(detail: unknown): string[] {
  if (detail === null || typeof detail !== 'object') return detail === undefined || detail === null ? [] : [String(detail)];
  return Object.entries(detail as Record<string, unknown>).map(([key, value]) => {
    const text = Array.isArray(value) ? value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ')
      : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
    return `${key}: ${text}`;
  });
}
