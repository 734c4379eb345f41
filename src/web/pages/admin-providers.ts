/**
 * 登录方式 in the admin console (docs/upstream.md): the sign-in providers with the callback
 * address to register at each and its last failure, switched on and off, added, changed and
 * removed, with the roles it gives (admin-provider-roles.ts). A user's linked accounts are in
 * admin-user-links.ts. Secrets are write-only: the form never shows them.
 */
import { data } from '../api.js';
import type { ProviderView } from '../contracts.js';
import {
  busy,
  copyLine,
  field,
  form,
  formatTime,
  h,
  input,
  type notice,
} from '../dom.js';
import { removeButton } from './admin-list-parts.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';
import { providerStatus, roleMapFields } from './admin-provider-roles.js';

type Notice = ReturnType<typeof notice>;
const TYPES: Array<[string, string]> = [
  ['steam', 'Steam'],
  ['discord', 'Discord'],
  ['qq', 'QQ'],
  ['wechat', t('providers.wechat')],
  ['github', 'GitHub'],
  ['google', 'Google'],
  ['microsoft', 'Microsoft'],
  ['oidc', 'OpenID Connect'],
  ['oauth2', 'OAuth 2.0'],
];
/** Text settings of the form, as the API names them, with their labels; the advanced ones fold away. */
const MAIN: Array<[string, string, string?]> = [
  ['name', t('providers.name'), t('providers.nameHint')],
  ['client_id', 'Client ID / App ID'],
  ['client_secret', 'Client Secret / App Key', t('providers.secretHint')],
  ['issuer', t('providers.issuer')],
  ['scopes', 'Scopes', t('providers.scopesHint')],
  ['require_guild', t('providers.guild'), t('providers.guildHint')],
  ['api_key', 'Steam Web API Key', t('providers.apiKeyHint')],
];
const ADVANCED: Array<[string, string]> = [
  ['authorization_endpoint', 'Authorization endpoint'],
  ['token_endpoint', 'Token endpoint'],
  ['userinfo_endpoint', 'Userinfo endpoint'],
  ['openid_endpoint', t('providers.openid2')],
  ['api_base', 'API base'],
  ['subject_field', t('providers.subjectField')],
  ['username_field', t('providers.usernameField')],
  ['email_field', t('providers.emailField')],
];

function providerForm(
  msg: Notice,
  done: () => Promise<void>,
  editing?: ProviderView,
): HTMLFormElement {
  const id = input('provider_id', {
    value: editing?.id,
    disabled: !!editing,
    placeholder: t('providers.idPlaceholder'),
  });
  const type = h(
    'select',
    { name: 'provider_type', id: 'f-provider_type', disabled: !!editing },
    ...TYPES.map(([v, label]) =>
      h('option', { value: v, selected: editing?.type === v }, label),
    ),
  );
  const fields = new Map<string, HTMLInputElement>();
  const text = ([name, label, hint]: [string, string, string?]) => {
    const current = editing
      ? (editing as unknown as Record<string, unknown>)[name]
      : undefined;
    const el = input(`provider_${name}`, {
      value: typeof current === 'string' ? current : undefined,
      autocomplete: 'off',
    });
    fields.set(name, el);
    return field(label, el, hint);
  };
  const roles = roleMapFields(editing);
  const trust = h('input', {
    type: 'checkbox',
    id: 'f-provider_trust_email',
    checked: editing?.trust_email === true,
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    editing ? t('console.save') : t('providers.add'),
  );
  return form(
    [
      h(
        'div',
        { class: 'inline fields' },
        field(t('providers.id'), id, t('providers.idHint')),
        field(t('console.type'), type),
      ),
      ...MAIN.map(text),
      h('label', { class: 'check' }, trust, t('providers.trustEmail')),
      roles.section,
      h(
        'details',
        {},
        h('summary', {}, t('providers.advanced')),
        ...ADVANCED.map((f) => text(f)),
      ),
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      const body: Record<string, unknown> = {
        id: editing?.id ?? id.value.trim(),
        trust_email: trust.checked,
      };
      if (!editing) body.type = type.value;
      for (const [name, el] of fields) {
        const value = el.value.trim();
        // On a change, an empty secret means "keep it"; an empty setting clears it.
        if (
          value !== '' ||
          (editing && !['client_secret', 'api_key'].includes(name))
        )
          body[name] = value;
      }
      Object.assign(body, roles.values(!!editing));
      await data(
        'POST',
        editing ? 'admin/providers/update' : 'admin/providers',
        body,
      );
      msg.ok(
        editing
          ? t('providers.saved', { name: editing.name })
          : t('providers.added'),
      );
      await done();
    },
    (e) => msg.error(messageOf(e)),
  );
}

function providerRow(
  p: ProviderView,
  msg: Notice,
  reload: () => Promise<void>,
  edit: (p: ProviderView) => void,
): HTMLElement {
  const toggle = h(
    'button',
    {
      type: 'button',
      class: p.enabled ? 'danger small-button' : 'secondary small-button',
      'data-action': 'toggle',
    },
    p.enabled ? t('console.disable') : t('console.enable'),
  );
  toggle.addEventListener(
    'click',
    () =>
      void busy(toggle, async () => {
        await data('POST', 'admin/providers/status', {
          id: p.id,
          enabled: !p.enabled,
        }).then(reload, (e: unknown) => msg.error(messageOf(e)));
      }),
  );
  const change = h(
    'button',
    { type: 'button', class: 'secondary small-button' },
    t('console.edit'),
  );
  change.addEventListener('click', () => edit(p));
  const remove = removeButton(
    t('account.delete'),
    t('providers.removeConfirm', { name: p.name }),
    { path: 'admin/providers/remove', id: p.id, msg, reload },
  );
  return h(
    'li',
    { class: 'provider', 'data-provider': p.id },
    h(
      'div',
      { class: 'inline tight' },
      h('strong', {}, p.name),
      h('code', {}, p.id),
      h(
        'span',
        { class: 'badge' },
        TYPES.find(([t]) => t === p.type)?.[1] ?? p.type,
      ),
      h(
        'span',
        { class: p.enabled ? 'badge ok' : 'badge warn' },
        p.enabled ? t('console.enabled') : t('console.disabled'),
      ),
    ),
    h(
      'div',
      { class: 'muted small' },
      t('providers.callback', { name: p.name }),
    ),
    copyLine(p.callback_url, t('providers.callbackLabel', { name: p.name })),
    h(
      'div',
      { class: 'muted small' },
      t('providers.summary', {
        clientId: p.client_id || '—',
        secret: p.has_client_secret
          ? t('providers.secretSet')
          : t('account.none'),
        time: formatTime(p.updated_at),
      }),
    ),
    ...providerStatus(p),
    h('div', { class: 'actions' }, toggle, change, remove),
  );
}

export function providersView(msg: Notice): HTMLElement {
  const list = h('ul', { class: 'plain providers', id: 'providers' });
  const editor = h('div', { id: 'provider-editor' });
  const reload = async () => {
    const { providers } = await data<{ providers: ProviderView[] }>(
      'GET',
      'admin/providers',
    );
    list.replaceChildren(
      ...(providers.length
        ? providers.map((p) => providerRow(p, msg, reload, edit))
        : [h('li', { class: 'muted' }, t('providers.none'))]),
    );
    editor.replaceChildren(
      h('h2', {}, t('providers.addTitle')),
      providerForm(msg, reload),
    );
  };
  const edit = (p: ProviderView) => {
    editor.replaceChildren(
      h('h2', {}, t('providers.editTitle', { name: p.name })),
      providerForm(msg, reload, p),
    );
    editor.scrollIntoView();
  };
  void reload().catch((e: unknown) => msg.error(messageOf(e)));
  return h(
    'div',
    { id: 'providers-view' },
    h('p', { class: 'muted small' }, t('providers.intro')),
    list,
    editor,
  );
}
