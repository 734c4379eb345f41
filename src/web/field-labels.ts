/**
 * The API names a bad field by its wire name (`参数错误：display_name`); people know it by the
 * label on the form. This one table turns the first into the second for everything the pages
 * show, and an English page shows the API's messages in English; the API's own stay as they are.
 */
import { language, t, type MessageKey } from './i18n.js';
import { API_MESSAGES_EN } from './messages/en/api.js';

const LABELLED_FIELDS = new Set([
  'username',
  'password',
  'new_password',
  'current_password',
  'email',
  'email_code',
  'code',
  'otp',
  'display_name',
  'user_code',
  'client_id',
  'client_type',
  'homepage',
  'redirect_uris',
  'cors_origins',
  'scopes',
  'grant_types',
  'token_endpoint_auth_method',
  'post_logout_redirect_uris',
  'reason',
  'roles',
  'purpose',
  'body',
]);

/** Where a page names a field differently (an app's display_name is its 应用名称): field → catalogue key. */
export type LabelOverrides = Readonly<Record<string, MessageKey>>;

export const APP_LABELS: LabelOverrides = { display_name: 'label.appName' };

/** A Set and an own-property check: a name from the wire such as `__proto__` is never looked up on a prototype. */
export function fieldLabel(
  name: string,
  overrides: LabelOverrides = {},
): string {
  const key = Object.hasOwn(overrides, name) ? overrides[name] : undefined;
  if (key) return t(key);
  return LABELLED_FIELDS.has(name) ? t(`label.${name}` as MessageKey) : name;
}

const BAD_PARAM = '参数错误：';

/** The wire field a `参数错误：<field>` message names, if it is one. */
export function badParamField(msg: string): string | undefined {
  return msg.startsWith(BAD_PARAM) ? msg.slice(BAD_PARAM.length) : undefined;
}

const ROLE_IN_USE = '该角色仍被应用要求，不能删除：';

/** The API's answer to a missing or wrong proof of a sensitive change; the pages always send one. */
export const REAUTH_REQUIRED = '需要重新验证身份';

/** What a refused proof means depends on what the account proves itself with: a password, or a mailed code. */
let reauthRefusal: MessageKey = 'api.reauthRefused';

/** Told by the proof forms once they know the account has no password. */
export function proofWithoutPassword(): void {
  reauthRefusal = 'api.reauthRefusedNoPassword';
}

/** A server message as a person reads it: `参数错误：display_name` becomes `参数错误：应用名称` (or `Invalid value: App name`). */
export function readable(msg: string, overrides: LabelOverrides = {}): string {
  if (msg === REAUTH_REQUIRED) return t(reauthRefusal);
  const field = badParamField(msg);
  if (field !== undefined)
    return t('api.badParam', { field: fieldLabel(field, overrides) });
  if (language() !== 'en') return msg;
  if (Object.hasOwn(API_MESSAGES_EN, msg)) return API_MESSAGES_EN[msg]!;
  // A refusal that names what it concerns after its text (the apps requiring a role).
  const prefix = msg.startsWith(ROLE_IN_USE) ? ROLE_IN_USE : undefined;
  return prefix ? API_MESSAGES_EN[prefix]! + msg.slice(prefix.length) : msg;
}
