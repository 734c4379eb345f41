/** The OpenID Connect part of the developer console: client fields and the issuer to copy. */
import { copyLine, field, h, input } from '../dom.js';
import { roleNames } from './admin-app-roles.js';
import type { AppView } from '../contracts.js';
import { t } from '../i18n.js';

const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';
const GRANTS: Array<[string, string]> = [
  ['authorization_code', t('console.grantCode')],
  ['refresh_token', t('console.grantRefresh')],
  ['client_credentials', t('console.grantClient')],
  [DEVICE, t('console.grantDevice')],
];
const METHODS: Record<string, Array<[string, string]>> = {
  confidential: [
    ['client_secret_basic', t('console.methodBasic')],
    ['client_secret_post', t('console.methodPost')],
  ],
  public: [['none', t('console.methodNone')]],
};

export interface ClientFieldsForm {
  nodes: HTMLElement[];
  /** The values to send; `clientType` picks the methods offered on create. */
  values(): {
    grant_types: string[];
    token_endpoint_auth_method: string;
    post_logout_redirect_uris: string[];
    backchannel_logout_uri: string;
    backchannel_logout_session_required: boolean;
    /** Only when editing an app: creation takes none. */
    required_roles?: string[];
  };
  /** On create the client type can change: offer that type's methods. */
  setClientType(clientType: string): void;
}

export function clientFields(
  app: AppView | undefined,
  clientType: string,
): ClientFieldsForm {
  const chosen = new Set(
    app?.grant_types ?? ['authorization_code', 'refresh_token'],
  );
  const boxes = GRANTS.map(([value, label]) => {
    const box = h('input', { type: 'checkbox', name: 'grant_types', value });
    // The default state too, so the form's reset after a creation ticks the defaults again.
    box.defaultChecked = chosen.has(value);
    return h('label', { class: 'check' }, box, ` ${label}`);
  });
  const method = h('select', { name: 'token_endpoint_auth_method' });
  const fillMethods = (type: string, selected?: string) => {
    method.replaceChildren(
      ...(METHODS[type] ?? METHODS.confidential!).map(([v, label]) =>
        h('option', { value: v }, label),
      ),
    );
    if (selected) method.value = selected;
  };
  fillMethods(clientType, app?.token_endpoint_auth_method);
  const logout = h('textarea', {
    name: 'post_logout_redirect_uris',
    rows: '2',
    placeholder: t('console.logoutHint'),
  });
  logout.value = (app?.post_logout_redirect_uris ?? []).join('\n');
  // Back-Channel Logout 1.0: where the center posts a logout token when a person's session ends.
  const backchannel = h('input', {
    name: 'backchannel_logout_uri',
    type: 'url',
    placeholder: t('console.backchannelHint'),
  });
  backchannel.defaultValue = app?.backchannel_logout_uri ?? '';
  const sessionRequired = h('input', {
    type: 'checkbox',
    name: 'backchannel_logout_session_required',
  });
  sessionRequired.defaultChecked =
    app?.backchannel_logout_session_required ?? false;
  // Any one of these roles admits a person (docs/api.md, roles); set once the app exists.
  const required =
    app &&
    input('required_roles', {
      value: app.required_roles.join(', '),
      placeholder: t('roles.everyone'),
    });
  return {
    nodes: [
      h(
        'fieldset',
        { class: 'grants' },
        h('legend', {}, t('console.grantTypes')),
        ...boxes,
      ),
      field(t('label.token_endpoint_auth_method'), method),
      field(t('console.postLogoutUris'), logout),
      field(
        t('console.backchannelUri'),
        backchannel,
        t('console.backchannelNote'),
      ),
      h(
        'label',
        { class: 'check' },
        sessionRequired,
        ` ${t('console.backchannelSession')}`,
      ),
      ...(required
        ? [
            field(
              t('roles.requiredRoles'),
              required,
              t('roles.requiredRolesHint'),
            ),
          ]
        : []),
    ],
    values: () => ({
      grant_types: boxes
        .map((b) => b.querySelector('input')!)
        .filter((i) => i.checked)
        .map((i) => i.value),
      token_endpoint_auth_method: method.value,
      post_logout_redirect_uris: logout.value
        .split(/[\r\n]+/)
        .map((s) => s.trim())
        .filter(Boolean),
      backchannel_logout_uri: backchannel.value.trim(),
      backchannel_logout_session_required: sessionRequired.checked,
      ...(required && { required_roles: roleNames(required.value) }),
    }),
    setClientType: (type) => fillMethods(type),
  };
}

/** The issuer and discovery URL an OpenID Connect client is configured with. */
export function issuerPanel(): HTMLElement {
  const discovery = `${location.origin}/.well-known/openid-configuration`;
  const issuerSlot = h('div', {}, copyLine(location.origin, 'issuer'));
  // The discovery document names the issuer exactly (BASE_URL), which may differ from this page's origin behind a proxy.
  void fetch(discovery)
    .then((r) => r.json())
    .then((d: { issuer?: unknown }) => {
      if (typeof d.issuer === 'string')
        issuerSlot.replaceChildren(copyLine(d.issuer, 'issuer'));
    })
    .catch(() => undefined);
  return h(
    'details',
    { class: 'oidc', id: 'oidc-issuer' },
    h('summary', {}, t('console.oidcInfo')),
    h('p', { class: 'muted' }, t('console.oidcHint')),
    h('p', {}, t('console.issuer')),
    issuerSlot,
    h('p', {}, t('console.discovery')),
    copyLine(discovery, 'discovery URL'),
  );
}
