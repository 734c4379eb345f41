/**
 * The single error type of the service and the one table that maps each refusal reason to
 * its HTTP status and public `msg`. Rules (domain) return reasons; services throw them;
 * only this table knows statuses and texts. Texts are public interface (docs/api.md §1.9,
 * docs/api.md): never edit one without the spec.
 */
const REASONS = {
  // general (docs/api.md §1)
  notJson: [415, '请求体必须是 JSON'],
  badJson: [400, '请求体不是合法的 JSON'],
  tooLarge: [413, '请求体过大'],
  notFound: [404, '接口不存在'],
  internal: [500, '服务器内部错误'],
  rateLimited: [429, '请求过于频繁，请稍后再试'],
  /** `参数错误：<field>`: the field name is appended (see badParam). */
  badParam: [400, '参数错误：'],
  // tokens (docs/api.md §1.9, §1, §3)
  tokenInvalid: [401, '令牌无效或已过期'],
  notFirstParty: [403, '该令牌无权访问此接口'],
  banned: [403, '账号已被封禁'],
  // accounts (docs/api.md §2)
  badUsername: [400, '用户名格式不正确'],
  badPassword: [400, '密码长度需为 8 到 128 个字符'],
  badEmail: [400, '邮箱格式不正确'],
  usernameTaken: [409, '用户名已被占用'],
  emailTaken: [409, '邮箱已被注册'],
  badEmailCode: [400, '验证码错误或已过期'],
  badCredentials: [401, '用户名或密码错误'],
  // second factors: sign-in (v1 login, login_by_code) with the right first factor
  secondFactorRequired: [401, '需要两步验证'],
  badSecondFactor: [401, '两步验证码错误'],
  // second factors on /account (not fixed by the spec)
  wrongOtpCode: [400, '两步验证码错误'],
  totpAlreadyOn: [409, '两步验证已开启'],
  totpNotSetUp: [400, '请先生成两步验证密钥'],
  totpNotOn: [400, '两步验证未开启'],
  passkeyFailed: [400, '通行密钥验证失败'],
  passkeyTaken: [409, '该通行密钥已登记'],
  unknownPasskey: [404, '通行密钥不存在'],
  // applications (docs/api.md §1.9, §4)
  unknownApp: [404, '未知的应用'],
  appDisabled: [403, '该应用已被停用'],
  notAppOwner: [403, '无权操作该应用'],
  clientIdTaken: [409, '应用标识已存在'],
  badRedirectUriFormat: [400, '回调地址格式不正确'],
  badOriginFormat: [400, '来源格式不正确'],
  badBackchannelLogoutUri: [400, '后台退出通知地址格式不正确'],
  // not fixed by the spec: a loopback, private or link-local address while WEBHOOK_ALLOW_PRIVATE is off
  internalBackchannelLogoutUri: [400, '后台退出通知地址不能是内部网络地址'],
  // not fixed by the spec: a non-admin owner past MAX_BACKCHANNEL_APPS_PER_OWNER apps with an address
  backchannelAppLimit: [400, '设置后台退出通知地址的应用数量已达上限'],
  publicNoSecret: [400, '公开客户端没有密钥'],
  // authorization (docs/api.md §1.9, §5)
  redirectNotAllowed: [400, '回调地址不在白名单内'],
  pkceRequired: [400, '公开客户端必须提供 code_challenge(PKCE)'],
  s256Only: [400, '仅支持 code_challenge_method=S256'],
  confidentialFields: [400, '请提供 client_id、client_secret 与 code'],
  badSecret: [401, 'client_secret 不正确'],
  verifierMissing: [400, '缺少 code_verifier'],
  verifierFailed: [401, 'code_verifier 校验失败'],
  codeInvalid: [400, '授权码无效'],
  codeExpired: [400, '授权码已过期'],
  codeUsed: [400, '授权码已被使用'],
  badScope: [400, '申请的权限范围无效'],
  // CORS (docs/api.md §6)
  originNotAllowed: [403, '来源不在白名单内'],
  // device (docs/api.md §7)
  devicePending: [400, '等待用户确认'],
  deviceSlowDown: [400, '请求过于频繁'],
  deviceDenied: [400, '用户拒绝了授权'],
  deviceInvalid: [400, '设备码无效或已过期'],
  // account self-service (/api/v1/auth/account/…; not fixed by the spec)
  // docs/api.md §10: a sensitive account change without the owner's proof: the current password
  // (and the second-factor code when one is on) missing or wrong
  reauthRequired: [401, '需要重新验证身份'],
  sameEmail: [400, '新邮箱与当前邮箱相同'],
  unknownSession: [404, '会话不存在'],
  // admin (docs/api.md §8)
  adminOnly: [403, '需要管理员权限'],
  // not fixed by the spec: admin actions on a username that does not exist
  unknownUser: [404, '用户不存在'],
  // not fixed by the spec (docs/api.md §8.1): an administrator banning or demoting themselves,
  // or deleting their own account; and a change that would leave no account with role admin
  selfBan: [403, '不能封禁自己的账号'],
  selfDemote: [403, '不能移除自己的管理员角色'],
  adminSelfDelete: [
    403,
    '管理员不能注销自己的账号，请先由其他管理员移除管理员角色',
  ],
  lastAdmin: [409, '至少需要保留一名管理员'],
  // the role catalogue and apps limited to roles (docs/api.md, roles)
  appRoleRequired: [403, '无权使用该应用'],
  // not fixed by the spec: the catalogue's refusals; the apps are appended to the last one
  unknownRole: [404, '未知的角色'],
  builtinRole: [409, '内置角色不能删除'],
  roleRequiredByApps: [409, '该角色仍被应用要求，不能删除：'],
  // not fixed by the spec: admin disabling or enabling an app needs a reason for its owner
  reasonRequired: [400, '请填写原因'],
  // not fixed by the spec: an owner trying to restart an app an administrator stopped
  appSuspended: [403, '该应用已被管理员停用'],
  // not fixed by the spec: /readyz when the database does not answer
  dbUnavailable: [503, '数据库不可用'],
  // not fixed by the spec: the consent page's authorization ticket expired or was tampered with
  authorizationTicketInvalid: [400, '授权请求已失效，请返回应用重新登录'],
  // sign-in with other accounts (docs/api.md §14; not fixed by the spec)
  unknownProvider: [404, '未知的登录方式'],
  unknownWebhook: [404, 'Webhook 不存在'],
  unknownDelivery: [404, '投递记录不存在'],
  providerIdTaken: [409, '登录方式标识已存在'],
  upstreamTicketInvalid: [400, '第三方登录已失效，请重新登录'],
  upstreamLinkedElsewhere: [409, '该第三方账号已绑定其他账号'],
  upstreamAlreadyLinked: [409, '已绑定过该登录方式'],
  upstreamNotLinked: [404, '未绑定该登录方式'],
  upstreamNotEmailHolder: [403, '只能绑定到使用该邮箱的账号'],
  lastSignInMethod: [
    400,
    '这是账号唯一的登录方式，请先设置密码或绑定其他登录方式',
  ],
  // Minecraft profiles and textures (docs/api.md §18; not fixed by the spec)
  badMinecraftName: [400, '角色名需为 1 到 16 位字母、数字或下划线'],
  minecraftNameTaken: [409, '角色名已被占用'],
  minecraftProfileLimit: [400, '角色数量已达上限'],
  unknownMinecraftProfile: [404, '角色不存在'],
  badTexture: [
    400,
    '材质须为 PNG 图片，皮肤 64×32 或 64×64，披风 64×32 或 22×17',
  ],
  // abuse protection (docs/api.md §16)
  captchaRequired: [400, '请完成人机验证'],
  registrationClosed: [403, '当前不开放注册'],
  badInvite: [400, '邀请码无效或已用完'],
  emailDomainRefused: [400, '该邮箱域名不允许注册'],
  // not fixed by the spec: an administrator removing an invite code that does not exist
  unknownInvite: [404, '邀请码不存在'],
} as const satisfies Record<string, readonly [number, string]>;

export type Reason = keyof typeof REASONS;

/** The public texts by reason, for the few places that print one without failing (pages, CLI). */
export const MSG = Object.fromEntries(
  Object.entries(REASONS).map(([r, [, msg]]) => [r, msg]),
) as { readonly [R in Reason]: (typeof REASONS)[R][1] };

export type Msg = (typeof MSG)[Reason];

/** What a rule refuses with: a reason, and for `badParam` the field it concerns. */
export interface Refusal {
  readonly reason: Reason;
  readonly field?: string;
}

/** The only error the service throws on purpose; mapped to `{ ok:false, msg }` in one place. */
export class AppError extends Error {
  readonly status: number;
  readonly msg: string;

  constructor(
    readonly reason: Reason,
    /** Extra keys of the failure body (device polling adds `error`). */
    readonly extra?: Record<string, string>,
    field?: string,
    /** For a 429: whole seconds until the exhausted limit lets the client in again (`Retry-After`). */
    readonly retryAfterS?: number,
    /** Headers to answer with beside the unchanged body (a ban's reason and end at sign-in). */
    readonly headers?: Record<string, string>,
  ) {
    const [status, text] = REASONS[reason];
    const msg = field === undefined ? text : `${text}${field}`;
    super(msg);
    this.name = 'AppError';
    this.status = status;
    this.msg = msg;
  }
}

/** A refusal for `reason`, with the status and msg of the table (a 429: rateLimited(), which says when to come back). */
export const fail = (
  reason: Reason,
  extra?: Record<string, string>,
): AppError => new AppError(reason, extra);

/** A rule's refusal as an error. */
export const refused = (r: Refusal): AppError =>
  new AppError(r.reason, undefined, r.field);

/** `参数错误：<field>` — the generic invalid-field failure of docs/api.md §1. */
export function badParam(field: string): AppError {
  return new AppError('badParam', undefined, field);
}

export const unauthorized = (): AppError => fail('tokenInvalid');
/** A 429 that the client may retry after `retryAfterS` seconds (at least one). */
export const rateLimited = (
  retryAfterS: number,
  extra?: Record<string, string>,
): AppError =>
  new AppError(
    'rateLimited',
    extra,
    undefined,
    Math.max(1, Math.ceil(retryAfterS)),
  );

/** The `Retry-After` header of a 429 (RFC 9110 §10.2.3), for every place that answers errors; none for other errors. */
export function retryAfterHeader(
  err: unknown,
): { 'retry-after': string } | Record<string, never> {
  return err instanceof AppError && err.retryAfterS !== undefined
    ? { 'retry-after': String(err.retryAfterS) }
    : {};
}

/** Headers an error asks for: `Retry-After` of a 429, and any the error carries itself. */
export function errorHeaders(err: unknown): Record<string, string> {
  return err instanceof AppError
    ? { ...retryAfterHeader(err), ...err.headers }
    : {};
}

/**
 * 403 `账号已被封禁` for the person who just proved who they are: the body stays exactly the
 * contract's, and the reason and end travel in `x-ban-reason` (percent-encoded UTF-8) and
 * `x-ban-until` (unix seconds, absent for a permanent ban) for the pages to show (docs/api.md §15).
 */
export function bannedAtSignIn(ban: {
  banReason: string;
  bannedUntil: number | null;
}): AppError {
  return new AppError('banned', undefined, undefined, undefined, {
    'x-ban-reason': encodeURIComponent(ban.banReason),
    ...(ban.bannedUntil !== null && {
      'x-ban-until': String(Math.floor(ban.bannedUntil / 1000)),
    }),
  });
}

/** The failure answer of a reason, for replies sent without throwing. */
export function failureOf(reason: Reason): {
  status: number;
  body: { ok: false; msg: string };
} {
  const [status, msg] = REASONS[reason];
  return { status, body: { ok: false, msg } };
}
