/**
 * The API names a bad field by its wire name (`参数错误：display_name`); people know it by the
 * label on the form. This one map turns the first into the second for everything the pages
 * show; the API's own messages stay as they are.
 */
const FIELD_LABELS = new Map<string, string>(Object.entries({
  username: '用户名',
  password: '密码',
  new_password: '新密码',
  current_password: '当前密码',
  email: '邮箱',
  email_code: '邮箱验证码',
  code: '验证码',
  otp: '两步验证码',
  display_name: '昵称',
  user_code: '设备验证码',
  client_id: '应用标识',
  client_type: '客户端类型',
  homepage: '主页',
  redirect_uris: '回调地址',
  cors_origins: '跨域来源',
  scopes: '权限范围',
  grant_types: '授权方式',
  token_endpoint_auth_method: '令牌端点认证方式',
  post_logout_redirect_uris: '退出后跳转地址',
  reason: '原因',
  roles: '角色',
  purpose: '验证码用途',
  body: '请求内容',
}));

/** Where a page names a field differently (an app's display_name is its 应用名称). */
export type LabelOverrides = Readonly<Record<string, string>>;

export const APP_LABELS: LabelOverrides = { display_name: '应用名称' };

/** A Map and an own-property check: a name from the wire such as `__proto__` is never looked up on a prototype. */
export function fieldLabel(name: string, overrides: LabelOverrides = {}): string {
  return (Object.prototype.hasOwnProperty.call(overrides, name) ? overrides[name] : undefined) ?? FIELD_LABELS.get(name) ?? name;
}

const BAD_PARAM = '参数错误：';

/** The wire field a `参数错误：<field>` message names, if it is one. */
export function badParamField(msg: string): string | undefined {
  return msg.startsWith(BAD_PARAM) ? msg.slice(BAD_PARAM.length) : undefined;
}

/** The API's answer to a missing or wrong proof of a sensitive change; the pages always send one. */
export const REAUTH_REQUIRED = '需要重新验证身份';

/** A server message as a person reads it: `参数错误：display_name` becomes `参数错误：应用名称`. */
export function readable(msg: string, overrides: LabelOverrides = {}): string {
  if (msg === REAUTH_REQUIRED) return '当前密码或两步验证码不正确';
  const field = badParamField(msg);
  return field === undefined ? msg : BAD_PARAM + fieldLabel(field, overrides);
}
