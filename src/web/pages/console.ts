import { currentUser, data, loginUrl, type Me } from '../api.js';
import { busy, copyLine, field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf, needsLogin, render } from '../layout.js';
import { siteName } from '../site.js';
import { required, showFieldErrors } from '../field-errors.js';
import { APP_LABELS } from '../field-labels.js';
import type { AppSecret, AppSuspension, AppView, CreatedApp } from '../contracts.js';
import { clientFields, issuerPanel } from './console-oidc.js';

const lines = (text: string) => text.split(/[\r\n]+/).map((s) => s.trim()).filter(Boolean);
const words = (text: string) => text.split(/[\s,，]+/).map((s) => s.trim()).filter(Boolean);
const report = (msg: ReturnType<typeof notice>) => (err: unknown) => {
  if (needsLogin(err)) return location.replace(loginUrl());
  msg.error(messageOf(err, APP_LABELS));
};
/** An app needs a name: said next to the field before anything is sent. */
const named = (f: ReturnType<typeof profileFields>) => showFieldErrors([[f.displayName, required(f.displayName, '应用名称')]]);

function textarea(name: string, value: string, placeholder: string): HTMLTextAreaElement {
  const t = h('textarea', { name, rows: '3', placeholder });
  t.value = value;
  return t;
}

/** The secret box, shown once after creation or rotation. */
function secretNotice(clientId: string, secret: string): HTMLElement {
  return h('div', { class: 'secret-once', id: 'new-secret' },
    h('p', {}, h('strong', {}, `「${clientId}」的 client_secret`), '：只显示这一次，请立即复制并保存到服务端配置中。'),
    copyLine(secret, 'client_secret'));
}

function profileFields(app?: AppView) {
  return {
    displayName: input('display_name', { required: true, maxlength: '64', value: app?.display_name ?? '' }),
    homepage: input('homepage', { type: 'url', placeholder: 'https://example.com', value: app?.homepage ?? '' }),
    redirects: textarea('redirect_uris', (app?.redirect_uris ?? []).join('\n'), '每行一个，例如 https://example.com/callback'),
    origins: textarea('cors_origins', (app?.cors_origins ?? []).join('\n'), '每行一个，例如 https://example.com（留空则取回调地址的来源）'),
    scopes: input('scopes', { placeholder: '以空格分隔，例如 profile email', value: (app?.scopes ?? []).join(' ') }),
  };
}

function createForm(onCreated: (app: CreatedApp) => void): HTMLElement {
  const msg = notice();
  const f = profileFields();
  const clientId = input('client_id', { placeholder: '留空自动生成', maxlength: '64' });
  const type = h('select', { name: 'client_type' },
    h('option', { value: 'confidential' }, '机密客户端（有服务端）'),
    h('option', { value: 'public' }, '公开客户端（单页/移动应用）'));
  const oidc = clientFields(undefined, 'confidential');
  type.addEventListener('change', () => oidc.setClientType(type.value));
  const submit = h('button', { type: 'submit', class: 'primary' }, '创建应用');
  const el = form([
    field('应用名称', f.displayName), field('应用标识 client_id（可选）', clientId, '小写字母、数字、- 或 _，3–64 位，不能全是数字'),
    field('客户端类型', type, '机密客户端在服务端保存 client_secret；公开客户端没有密钥，使用 PKCE'), field('主页', f.homepage), field('回调地址', f.redirects), field('跨域来源', f.origins), field('权限范围', f.scopes),
    ...oidc.nodes, submit,
  ], submit, async () => {
    msg.hide();
    if (!named(f)) return;
    const body: Record<string, unknown> = {
      display_name: f.displayName.value.trim(), redirect_uris: lines(f.redirects.value), client_type: type.value,
      cors_origins: lines(f.origins.value), scopes: words(f.scopes.value), ...oidc.values(),
    };
    if (f.homepage.value.trim()) body.homepage = f.homepage.value.trim();
    if (clientId.value.trim()) body.client_id = clientId.value.trim();
    onCreated(await data('POST', 'apps', body));
    el.reset();
    oidc.setClientType(type.value);
  }, report(msg));
  return h('details', { class: 'create', id: 'create-app' }, h('summary', {}, '创建新应用'), msg.el, el);
}

function editForm(app: AppView, onSaved: () => void): HTMLElement {
  const msg = notice();
  const f = profileFields(app);
  const oidc = clientFields(app, app.client_type);
  const submit = h('button', { type: 'submit', class: 'primary' }, '保存');
  const el = form([
    field('应用名称', f.displayName), field('主页', f.homepage), field('回调地址', f.redirects),
    field('跨域来源', f.origins), field('权限范围', f.scopes), ...oidc.nodes, submit,
  ], submit, async () => {
    msg.hide();
    if (!named(f)) return;
    await data('POST', 'apps/update', {
      client_id: app.client_id, display_name: f.displayName.value.trim(), homepage: f.homepage.value.trim(),
      redirect_uris: lines(f.redirects.value), cors_origins: lines(f.origins.value), scopes: words(f.scopes.value), ...oidc.values(),
    });
    onSaved();
  }, report(msg));
  return h('details', { class: 'edit' }, h('summary', {}, '编辑'), msg.el, el);
}

/** The app's homepage as a link; only http(s) addresses are ever made clickable. */
function homepageLink(homepage: string | null | undefined): Node | string {
  if (!homepage) return '（无）';
  let url: URL;
  try {
    url = new URL(homepage);
  } catch {
    return homepage;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return homepage;
  // A developer's site opens apart from this one: no window.opener, no referrer.
  return h('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer', class: 'break homepage' }, homepage);
}

function appCard(app: AppView, refresh: (secretFor?: [string, string]) => void): HTMLElement {
  const msg = notice();
  const active = app.status === 'active';
  const toggle = h('button', { type: 'button', class: active ? 'danger' : 'secondary', 'data-action': 'toggle' }, active ? '停用' : '启用');
  toggle.addEventListener('click', () => void busy(toggle, async () => {
    await data('POST', 'apps/disable', { client_id: app.client_id, enabled: !active }).then(() => refresh(), report(msg));
  }));
  const actions = h('div', { class: 'actions' }, toggle);
  if (app.client_type === 'confidential') {
    const rotate = h('button', { type: 'button', class: 'secondary', 'data-action': 'rotate' }, '重置密钥');
    rotate.addEventListener('click', () => void busy(rotate, async () => {
      if (!confirm(`重置「${app.display_name}」的 client_secret？旧密钥将立即失效。`)) return;
      await data<AppSecret>('POST', 'apps/rotate_secret', { client_id: app.client_id })
        .then((r) => refresh([r.client_id, r.client_secret]), report(msg));
    }));
    actions.prepend(rotate);
  }
  const list = (items: string[]) => (items.length ? h('ul', { class: 'plain' }, ...items.map((u) => h('li', {}, h('code', { class: 'break' }, u)))) : h('span', { class: 'muted' }, '（无）'));
  const row = (k: string, v: Node | string) => h('div', { class: 'row' }, h('dt', {}, k), h('dd', {}, v));
  return h('article', { class: 'app', 'data-client-id': app.client_id },
    h('header', {}, h('h3', {}, app.display_name),
      h('span', { class: active ? 'badge ok' : 'badge warn', 'data-status': app.status }, active ? '已启用' : '已停用')),
    h('dl', { class: 'profile' },
      row('client_id', h('code', {}, app.client_id)),
      row('主页', homepageLink(app.homepage)),
      row('类型', app.client_type === 'public' ? '公开客户端（PKCE）' : `机密客户端${app.has_secret ? '（已设置密钥）' : ''}`),
      row('回调地址', list(app.redirect_uris)),
      row('跨域来源', list(app.cors_origins)),
      row('权限范围', app.scopes.join(' ') || '（无）'),
      row('授权方式', app.grant_types.join(' ')),
      row('认证方式', h('code', {}, app.token_endpoint_auth_method)),
      row('退出后跳转', list(app.post_logout_redirect_uris)),
      row('创建时间', formatTime(app.created_at)),
    ),
    msg.el, actions, editForm(app, () => refresh()));
}

export async function consolePage(): Promise<void> {
  const me: Me | null = await currentUser().catch(() => null);
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  const msg = notice();
  const secretSlot = h('div', {});
  const listEl = h('div', { class: 'apps', id: 'apps' });
  const suspensions = h('div', { id: 'app-suspensions' });
  const refresh = async (secretFor?: [string, string]) => {
    secretSlot.replaceChildren(...(secretFor ? [secretNotice(secretFor[0], secretFor[1])] : []));
    try {
      // Apps an administrator stopped: the owner is told which, when and why.
      const { suspensions: stopped } = await data<{ suspensions: AppSuspension[] }>('GET', 'account/app_suspensions');
      suspensions.replaceChildren(...(stopped.length ? [h('div', { class: 'notice warning', role: 'alert' }, '以下应用已被管理员停用，如有疑问请联系管理员：',
        h('ul', {}, ...stopped.map((s) => h('li', {}, `${s.display_name}（${s.client_id}），${formatTime(s.at)}：${s.reason}`))))] : []));
      const { apps } = await data<{ apps: AppView[] }>('GET', 'apps');
      listEl.replaceChildren(...(apps.length ? apps.map((a) => appCard(a, (s) => void refresh(s))) : [h('p', { class: 'muted' }, '还没有应用。')]));
    } catch (err) {
      report(msg)(err);
    }
  };
  const create = createForm((app) => void refresh(app.client_secret ? [app.client_id, app.client_secret] : undefined));
  render('开发者控制台', [
    h('p', { class: 'muted' }, `管理接入${siteName()}的应用：回调地址、跨域来源、权限范围与密钥。`),
    msg.el, suspensions, secretSlot, issuerPanel(), create, h('h2', {}, '我的应用'), listEl,
  ], { me, wide: true });
  await refresh();
}
