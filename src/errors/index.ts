/**
 * The single error type of the service and the catalogue of every public `msg`.
 * Texts are public interface (SPEC.md §7, CONTRACT.md): never edit one without the spec.
 */
export const MSG = {
  // general (CONTRACT §0)
  notJson: '请求体必须是 JSON',
  badJson: '请求体不是合法的 JSON',
  tooLarge: '请求体过大',
  notFound: '接口不存在',
  internal: '服务器内部错误',
  rateLimited: '请求过于频繁，请稍后再试',
  // tokens (SPEC §7, CONTRACT §0, §2)
  tokenInvalid: '令牌无效或已过期',
  notFirstParty: '该令牌无权访问此接口',
  banned: '账号已被封禁',
  // accounts (CONTRACT §1)
  badUsername: '用户名格式不正确',
  badPassword: '密码长度需为 8 到 128 个字符',
  badEmail: '邮箱格式不正确',
  usernameTaken: '用户名已被占用',
  emailTaken: '邮箱已被注册',
  badEmailCode: '验证码错误或已过期',
  badCredentials: '用户名或密码错误',
  // applications (SPEC §7, CONTRACT §3)
  unknownApp: '未知的应用',
  appDisabled: '该应用已被停用',
  notAppOwner: '无权操作该应用',
  clientIdTaken: '应用标识已存在',
  badRedirectUriFormat: '回调地址格式不正确',
  badOriginFormat: '来源格式不正确',
  publicNoSecret: '公开客户端没有密钥',
  // authorization (SPEC §7, CONTRACT §4)
  redirectNotAllowed: '回调地址不在白名单内',
  pkceRequired: '公开客户端必须提供 code_challenge(PKCE)',
  s256Only: '仅支持 code_challenge_method=S256',
  confidentialFields: '请提供 client_id、client_secret 与 code',
  badSecret: 'client_secret 不正确',
  verifierMissing: '缺少 code_verifier',
  verifierFailed: 'code_verifier 校验失败',
  codeInvalid: '授权码无效',
  codeExpired: '授权码已过期',
  codeUsed: '授权码已被使用',
  badScope: '申请的权限范围无效',
  // CORS (SPEC §5)
  originNotAllowed: '来源不在白名单内',
  // device (CONTRACT §6)
  devicePending: '等待用户确认',
  deviceSlowDown: '请求过于频繁',
  deviceDenied: '用户拒绝了授权',
  deviceInvalid: '设备码无效或已过期',
  // admin (CONTRACT §8)
  adminOnly: '需要管理员权限',
  // not fixed by the spec: admin actions on a username that does not exist
  unknownUser: '用户不存在',
  // not fixed by the spec: /readyz when the database does not answer
  dbUnavailable: '数据库不可用',
} as const;

export type Msg = (typeof MSG)[keyof typeof MSG];

/** The only error the service throws on purpose; mapped to `{ ok:false, msg }` in one place. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly msg: string,
    /** Extra keys of the failure body (device polling adds `error`). */
    readonly extra?: Record<string, string>,
  ) {
    super(msg);
    this.name = 'AppError';
  }
}

/** `参数错误：<field>` — the generic invalid-field failure of CONTRACT §0. */
export function badParam(field: string): AppError {
  return new AppError(400, `参数错误：${field}`);
}

export const unauthorized = (): AppError => new AppError(401, MSG.tokenInvalid);
export const rateLimited = (): AppError => new AppError(429, MSG.rateLimited);
