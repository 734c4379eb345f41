/** The OpenID Connect part of the developer console: client fields and the issuer to copy. */
import { copyLine, field, h } from '../dom.js';
import type { AppView } from '../contracts.js';

const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
const GRANTS: Array<[string, string]> = [
  ['authorization_code', '授权码（authorization_code）'],
  ['refresh_token', '刷新令牌（refresh_token）'],
  ['client_credentials', '客户端凭据（client_credentials，仅机密客户端）'],
  [DEVICE, '设备码（device_code）'],
];
const METHODS: Record<string, Array<[string, string]>> = {
  confidential: [['client_secret_basic', 'client_secret_basic（HTTP Basic，默认）'], ['client_secret_post', 'client_secret_post（表单字段）']],
  public: [['none', 'none（公开客户端）']],
};

export interface ClientFieldsForm {
  nodes: HTMLElement[];
  /** The values to send; `clientType` picks the methods offered on create. */
  values(): { grant_types: string[]; token_endpoint_auth_method: string; post_logout_redirect_uris: string[] };
  /** On create the client type can change: offer that type's methods. */
  setClientType(clientType: string): void;
}

export function clientFields(app: AppView | undefined, clientType: string): ClientFieldsForm {
  const chosen = new Set(app?.grant_types ?? ['authorization_code', 'refresh_token']);
  const boxes = GRANTS.map(([value, label]) => {
    const box = h('input', { type: 'checkbox', name: 'grant_types', value });
    // The default state too, so the form's reset after a creation ticks the defaults again.
    box.defaultChecked = chosen.has(value);
    return h('label', { class: 'check' }, box, ` ${label}`);
  });
  const method = h('select', { name: 'token_endpoint_auth_method' });
  const fillMethods = (type: string, selected?: string) => {
    method.replaceChildren(...(METHODS[type] ?? METHODS.confidential!).map(([v, label]) => h('option', { value: v }, label)));
    if (selected) method.value = selected;
  };
  fillMethods(clientType, app?.token_endpoint_auth_method);
  const logout = h('textarea', { name: 'post_logout_redirect_uris', rows: '2', placeholder: '每行一个，例如 https://example.com/signed-out' });
  logout.value = (app?.post_logout_redirect_uris ?? []).join('\n');
  return {
    nodes: [
      h('fieldset', { class: 'grants' }, h('legend', {}, '授权方式（grant_types）'), ...boxes),
      field('令牌端点认证方式', method),
      field('退出后跳转地址（post_logout_redirect_uris）', logout),
    ],
    values: () => ({
      grant_types: boxes.map((b) => b.querySelector('input')!).filter((i) => i.checked).map((i) => i.value),
      token_endpoint_auth_method: method.value,
      post_logout_redirect_uris: logout.value.split(/[\r\n]+/).map((s) => s.trim()).filter(Boolean),
    }),
    setClientType: (type) => fillMethods(type),
  };
}

/** The issuer and discovery URL an OpenID Connect client is configured with. */
export function issuerPanel(): HTMLElement {
  const discovery = `${location.origin}/.well-known/openid-configuration`;
  const issuerSlot = h('div', {}, copyLine(location.origin, 'issuer'));
  // The discovery document names the issuer exactly (BASE_URL), which may differ from this page's origin behind a proxy.
  void fetch(discovery).then((r) => r.json()).then((d: { issuer?: unknown }) => {
    if (typeof d.issuer === 'string') issuerSlot.replaceChildren(copyLine(d.issuer, 'issuer'));
  }).catch(() => undefined);
  return h('details', { class: 'oidc', id: 'oidc-issuer' }, h('summary', {}, 'OpenID Connect 接入信息'),
    h('p', { class: 'muted' }, '在 Grafana、Gitea、Nextcloud 等应用中填写签发者（issuer）或发现地址，再填 client_id 与 client_secret。'),
    h('p', {}, '签发者 issuer'), issuerSlot,
    h('p', {}, '发现地址 discovery URL'), copyLine(discovery, 'discovery URL'));
}
