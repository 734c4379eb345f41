/**
 * 登录方式 in the admin console (docs/upstream.md): the sign-in providers with the callback
 * address to register at each, switched on and off, added, changed and removed; and a user's
 * linked accounts in the user detail. Secrets are write-only: the form never shows them.
 */
import { data } from '../api.js';
import type { AdminLinks, ProviderView } from '../contracts.js';
import { busy, copyLine, field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf } from '../layout.js';

type Notice = ReturnType<typeof notice>;
const TYPES: Array<[string, string]> = [
  ['steam', 'Steam'], ['discord', 'Discord'], ['qq', 'QQ'], ['wechat', '微信'], ['github', 'GitHub'], ['google', 'Google'],
  ['microsoft', 'Microsoft'], ['oidc', 'OpenID Connect'], ['oauth2', 'OAuth 2.0'],
];
/** Text settings of the form, as the API names them, with their labels; the advanced ones fold away. */
const MAIN: Array<[string, string, string?]> = [
  ['name', '显示名称', '按钮上显示为“使用 名称 登录”'], ['client_id', 'Client ID / App ID'], ['client_secret', 'Client Secret / App Key', '只写：已保存的密钥不会显示；修改时留空表示不变'],
  ['issuer', 'Issuer（OpenID Connect）'], ['scopes', 'Scopes', '空格分隔；留空使用默认值'], ['require_guild', 'Discord 服务器 ID', '只允许该服务器的成员登录'],
  ['api_key', 'Steam Web API Key', '只写；用于读取昵称和头像'],
];
const ADVANCED: Array<[string, string]> = [
  ['authorization_endpoint', 'Authorization endpoint'], ['token_endpoint', 'Token endpoint'], ['userinfo_endpoint', 'Userinfo endpoint'],
  ['openid_endpoint', 'OpenID 2.0 endpoint（Steam）'], ['api_base', 'API base'],
  ['subject_field', '用户标识字段（OAuth 2.0）'], ['username_field', '用户名字段（OAuth 2.0）'], ['email_field', '邮箱字段（OAuth 2.0）'],
];

function providerForm(msg: Notice, done: () => Promise<void>, editing?: ProviderView): HTMLFormElement {
  const id = input('provider_id', { value: editing?.id, disabled: !!editing, placeholder: '如 steam、corp-sso' });
  const type = h('select', { name: 'provider_type', id: 'f-provider_type', disabled: !!editing },
    ...TYPES.map(([v, label]) => h('option', { value: v, selected: editing?.type === v }, label)));
  const fields = new Map<string, HTMLInputElement>();
  const text = ([name, label, hint]: [string, string, string?]) => {
    const current = editing ? (editing as unknown as Record<string, unknown>)[name] : undefined;
    const el = input(`provider_${name}`, { value: typeof current === 'string' ? current : undefined, autocomplete: 'off' });
    fields.set(name, el);
    return field(label, el, hint);
  };
  const trust = h('input', { type: 'checkbox', id: 'f-provider_trust_email', checked: editing?.trust_email === true });
  const submit = h('button', { type: 'submit', class: 'primary' }, editing ? '保存' : '添加');
  return form([
    h('div', { class: 'inline' }, field('标识', id, '2–32 个 a-z 0-9 -，回调地址中使用'), field('类型', type)),
    ...MAIN.map(text),
    h('label', { class: 'check' }, trust, ' 信任该登录方式提供的邮箱（视为已验证）'),
    h('details', {}, h('summary', {}, '高级：覆盖接口地址'), ...ADVANCED.map((f) => text(f))),
    submit,
  ], submit, async () => {
    msg.hide();
    const body: Record<string, unknown> = { id: editing?.id ?? id.value.trim(), trust_email: trust.checked };
    if (!editing) body.type = type.value;
    for (const [name, el] of fields) {
      const value = el.value.trim();
      // On a change, an empty secret means "keep it"; an empty setting clears it.
      if (value !== '' || (editing && !['client_secret', 'api_key'].includes(name))) body[name] = value;
    }
    await data('POST', editing ? 'admin/providers/update' : 'admin/providers', body);
    msg.ok(editing ? `已保存 ${editing.name}` : '已添加登录方式');
    await done();
  }, (e) => msg.error(messageOf(e)));
}

function providerRow(p: ProviderView, msg: Notice, reload: () => Promise<void>, edit: (p: ProviderView) => void): HTMLElement {
  const toggle = h('button', { type: 'button', class: p.enabled ? 'danger small-button' : 'secondary small-button', 'data-action': 'toggle' }, p.enabled ? '停用' : '启用');
  toggle.addEventListener('click', () => void busy(toggle, async () => {
    await data('POST', 'admin/providers/status', { id: p.id, enabled: !p.enabled }).then(reload, (e: unknown) => msg.error(messageOf(e)));
  }));
  const change = h('button', { type: 'button', class: 'secondary small-button' }, '编辑');
  change.addEventListener('click', () => edit(p));
  const remove = h('button', { type: 'button', class: 'danger small-button' }, '删除');
  remove.addEventListener('click', () => void busy(remove, async () => {
    if (!confirm(`删除登录方式 ${p.name}？已绑定的账号关系会保留，重新添加同一标识后恢复。`)) return;
    await data('POST', 'admin/providers/remove', { id: p.id }).then(reload, (e: unknown) => msg.error(messageOf(e)));
  }));
  return h('li', { class: 'provider', 'data-provider': p.id },
    h('div', { class: 'inline tight' }, h('strong', {}, p.name), h('code', {}, p.id), h('span', { class: 'badge' }, TYPES.find(([t]) => t === p.type)?.[1] ?? p.type),
      h('span', { class: p.enabled ? 'badge ok' : 'badge warn' }, p.enabled ? '已启用' : '已停用')),
    h('div', { class: 'muted small' }, `回调地址（在 ${p.name} 的开发者后台登记）：`),
    copyLine(p.callback_url, `${p.name} 回调地址`),
    h('div', { class: 'muted small' }, `Client ID：${p.client_id || '—'} · 密钥：${p.has_client_secret ? '已设置' : '无'} · 更新于 ${formatTime(p.updated_at)}`),
    h('div', { class: 'actions' }, toggle, change, remove));
}

export function providersView(msg: Notice): HTMLElement {
  const list = h('ul', { class: 'plain providers', id: 'providers' });
  const editor = h('div', { id: 'provider-editor' });
  const reload = async () => {
    const { providers } = await data<{ providers: ProviderView[] }>('GET', 'admin/providers');
    list.replaceChildren(...(providers.length ? providers.map((p) => providerRow(p, msg, reload, edit)) : [h('li', { class: 'muted' }, '还没有配置登录方式')]));
    editor.replaceChildren(h('h2', {}, '添加登录方式'), providerForm(msg, reload));
  };
  const edit = (p: ProviderView) => {
    editor.replaceChildren(h('h2', {}, `编辑 ${p.name}`), providerForm(msg, reload, p));
    editor.scrollIntoView();
  };
  void reload().catch((e: unknown) => msg.error(messageOf(e)));
  return h('div', { id: 'providers-view' },
    h('p', { class: 'muted small' }, '启用的登录方式会在登录页显示为“使用 名称 登录”按钮。停用后按钮立即消失，其他实例 5 秒内生效；已绑定的账号关系保留。'),
    list, editor);
}

/** A user's linked accounts in the user detail, each removable. */
export async function userLinksView(username: string, msg: Notice): Promise<HTMLElement> {
  const box = h('div', { id: 'user-links' });
  const load = async () => {
    const { links } = await data<AdminLinks>('GET', `admin/users/links?username=${encodeURIComponent(username)}`);
    box.replaceChildren(h('h2', {}, `第三方账号（${links.length}）`), links.length === 0 ? h('p', { class: 'muted small' }, '无') : h('ul', { class: 'plain' }, ...links.map((l) => {
      const b = h('button', { type: 'button', class: 'danger small-button', 'data-provider': l.provider }, '解除绑定');
      b.addEventListener('click', () => void busy(b, async () => {
        if (!confirm(`解除 ${username} 与 ${l.provider_name} 的绑定？`)) return;
        await data('POST', 'admin/users/links/remove', { username, provider: l.provider }).then(() => { msg.ok('已解除绑定'); return load(); }, (e: unknown) => msg.error(messageOf(e)));
      }));
      return h('li', { class: 'inline tight' }, h('strong', {}, l.provider_name), h('span', {}, l.display_name), h('span', { class: 'muted small' }, `绑定于 ${formatTime(l.linked_at)}`), b);
    })));
  };
  await load().catch((e: unknown) => msg.error(messageOf(e)));
  return box;
}
