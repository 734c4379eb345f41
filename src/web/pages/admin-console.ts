/** The administration views beside user search: dashboard, user detail, applications, audit log. */
import { ApiError, data, getToken } from '../api.js';
import type {
  AdminAppPage, AdminAppView, AuditEntryView, AuditPage, Dashboard, SessionView, UserDetail,
} from '../contracts.js';
import { barChart } from '../chart.js';
import { busy, field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { sessionOrigin } from './account-settings.js';
import { auditActionLabel, detailLines, roleLabel } from '../audit-labels.js';
import { userLinksView } from './admin-providers.js';

type Notice = ReturnType<typeof notice>;
const VIEWS: Array<[string, string]> = [['dashboard', '概览'], ['', '用户'], ['apps', '应用'], ['providers', '登录方式'], ['webhooks', 'Webhook'], ['audit', '审计日志']];

export function adminTabs(current: string): HTMLElement {
  return h('nav', { class: 'tabs', 'aria-label': '管理' }, ...VIEWS.map(([view, label]) =>
    h('a', { class: view === current ? 'tab active' : 'tab', href: view ? `/admin?view=${view}` : '/admin' }, label)));
}

const total = (s: Array<{ count: number }>) => s.reduce((n, p) => n + p.count, 0);

export async function dashboardView(msg: Notice): Promise<HTMLElement> {
  const box = h('div', { id: 'dashboard' });
  try {
    const d = await data<Dashboard>('GET', 'admin/dashboard');
    const figure = (label: string, value: number, id: string) =>
      h('div', { class: 'figure', id }, h('div', { class: 'figure-value' }, String(value)), h('div', { class: 'muted small' }, label));
    const chart = (title: string, series: Dashboard['new_users'], id: string) =>
      h('figure', { class: 'chart-box', id }, h('figcaption', {}, `${title}（近 30 天共 ${total(series)}）`), barChart(series, title));
    if (d.switched_off_webhooks.length) {
      box.append(h('div', { class: 'notice error', id: 'webhooks-off', role: 'alert' },
        `以下 Webhook 连续 3 天投递失败，已停用：${d.switched_off_webhooks.map((w) => `${w.url}（${formatTime(w.disabled_at)}）`).join('、')}`));
    }
    box.append(
      h('div', { class: 'figures' },
        figure('用户总数', d.users_total, 'fig-users'), figure('启用的应用', d.active_apps, 'fig-apps'),
        figure('近 30 天登录失败', total(d.failed_sign_ins), 'fig-failed'), figure('429 次数（本实例自启动）', d.rate_limited_since_start, 'fig-429')),
      h('div', { class: 'charts' },
        chart('每日新用户', d.new_users, 'chart-new-users'), chart('每日登录', d.sign_ins, 'chart-sign-ins'),
        chart('每日登录失败', d.failed_sign_ins, 'chart-failed')),
    );
  } catch (err) {
    msg.error(messageOf(err));
  }
  return box;
}

function sessionRows(sessions: SessionView[], end: (s: SessionView, b: HTMLButtonElement) => void): HTMLElement {
  if (!sessions.length) return h('p', { class: 'muted small' }, '没有有效的登录');
  return h('ul', { class: 'plain sessions', id: 'user-sessions' }, ...sessions.map((s) => {
    const b = h('button', { type: 'button', class: 'danger small-button', 'data-session': s.id }, '结束');
    b.addEventListener('click', () => end(s, b));
    return h('li', { class: 'session', 'data-kind': s.kind }, h('div', { class: 'session-main' }, h('strong', {}, s.app_name),
      h('div', { class: 'muted small' }, `${sessionOrigin(s)} · 登录于 ${formatTime(s.created_at)} · 最近使用 ${formatTime(s.last_used_at)}`)), b);
  }));
}

/** The phrase, with the code under it (and as the tooltip) for the action filter and the CSV. */
const actionCell = (action: string): Node[] => [
  h('span', { title: action }, auditActionLabel(action)), h('br', {}), h('code', { class: 'muted small' }, action),
];

const detailCell = (detail: unknown): Array<Node | string> => {
  const lines = detailLines(detail);
  return lines.length ? lines.map((line) => h('div', {}, line)) : ['—'];
};

function auditTable(entries: AuditEntryView[]): HTMLElement {
  return h('div', { class: 'table-wrap' }, h('table', { class: 'users audit' },
    h('thead', {}, h('tr', {}, ...['时间', '操作者', '动作', '对象', 'IP', '详情'].map((t) => h('th', {}, t)))),
    h('tbody', {}, ...entries.map((e) => h('tr', {},
      h('td', { 'data-label': '时间' }, formatTime(e.at)), h('td', { 'data-label': '操作者' }, e.actor ?? '—'),
      h('td', { 'data-label': '动作', class: 'audit-action' }, ...actionCell(e.action)), h('td', { 'data-label': '对象' }, e.target ?? '—'),
      h('td', { 'data-label': 'IP' }, e.ip ?? '—'), h('td', { 'data-label': '详情', class: 'break small audit-detail' }, ...detailCell(e.detail)))))));
}

export async function userDetailView(username: string, msg: Notice): Promise<HTMLElement> {
  const box = h('div', { id: 'user-detail' });
  const load = async () => {
    try {
      const d = await data<UserDetail>('GET', `admin/users/detail?username=${encodeURIComponent(username)}`);
      const u = d.user;
      const reset = h('button', { type: 'button', class: 'danger', id: 'force-reset' }, '强制重置密码');
      reset.addEventListener('click', () => void busy(reset, async () => {
        if (!confirm(`将结束 ${u.username} 的所有登录，并向其邮箱发送重置验证码。继续吗？`)) return;
        await data('POST', 'admin/users/force_reset', { username: u.username }).then(() => { msg.ok('已结束其所有登录并发送重置验证码'); return load(); }, (e: unknown) => msg.error(messageOf(e)));
      }));
      const end = (s: SessionView, b: HTMLButtonElement) => void busy(b, async () => {
        await data('POST', 'admin/users/sessions/end', { username: u.username, id: s.id })
          .then(() => { msg.ok('已结束该登录'); return load(); }, (e: unknown) => msg.error(messageOf(e)));
      });
      const row = (k: string, v: Node | string) => h('div', { class: 'row' }, h('dt', {}, k), h('dd', {}, v));
      box.replaceChildren(
        h('dl', { class: 'profile' }, row('用户名', u.username), row('昵称', u.display_name), row('邮箱', `${u.email}${u.email_verified ? '（已验证）' : '（未验证）'}`),
          row('角色', u.roles.map(roleLabel).join('、') || '无'), row('状态', u.banned ? `已封禁${u.ban_reason ? `（${u.ban_reason}）` : ''}，${u.banned_until === null ? '永久' : `至 ${formatTime(u.banned_until)}`}` : '正常'), row('注册时间', formatTime(u.created_at))),
        h('div', { class: 'actions' }, reset),
        h('h2', {}, `有效登录（${d.sessions.length}）`), sessionRows(d.sessions, end),
        await userLinksView(u.username, msg),
        h('h2', {}, `应用（${d.apps.length}）`),
        d.apps.length ? h('ul', {}, ...d.apps.map((a) => h('li', {}, h('a', { href: `/admin?view=apps&q=${encodeURIComponent(a.client_id)}` }, a.display_name), ` · ${a.client_id} · ${a.status === 'active' ? '已启用' : '已停用'}`))) : h('p', { class: 'muted small' }, '无'),
        h('h2', {}, '审计记录（最近 50 条）'), auditTable(d.audit),
      );
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  await load();
  return box;
}

function appRow(a: AdminAppView, msg: Notice): HTMLElement {
  const active = a.status === 'active';
  const reason = input('reason', { placeholder: active ? '停用原因（将告知开发者）' : '恢复原因', 'aria-label': `${a.client_id} 的原因` });
  const toggle = h('button', { type: 'button', class: active ? 'danger' : 'secondary', 'data-action': 'status' }, active ? '停用' : '启用');
  toggle.addEventListener('click', () => void busy(toggle, async () => {
    try {
      const updated = await data<AdminAppView>('POST', 'admin/apps/status', { client_id: a.client_id, enabled: !active, reason: reason.value });
      tr.replaceWith(appRow(updated, msg));
      msg.ok(`${updated.display_name} 已${updated.status === 'active' ? '启用' : '停用'}`);
    } catch (err) {
      msg.error(messageOf(err));
    }
  }));
  const tr = h('tr', { 'data-client-id': a.client_id },
    h('td', { 'data-label': '应用' }, h('strong', {}, a.display_name), h('div', { class: 'muted small break' }, a.client_id)),
    h('td', { 'data-label': '所有者' }, h('a', { href: `/admin?view=user&username=${encodeURIComponent(a.owner)}` }, a.owner)),
    h('td', { 'data-label': '类型' }, a.client_type === 'public' ? '公开' : '机密'),
    h('td', { 'data-label': '状态' }, h('span', { class: active ? 'badge ok' : 'badge warn', 'data-status': a.status }, active ? '已启用' : '已停用'),
      a.status_reason ? h('div', { class: 'muted small' }, a.status_reason) : null),
    h('td', { 'data-label': '操作' }, h('div', { class: 'inline tight' }, reason, toggle)));
  return tr;
}

export function appsView(msg: Notice, initial: string): HTMLElement {
  const q = input('q', { type: 'search', placeholder: '应用名、client_id 或所有者', 'aria-label': '搜索应用', value: initial });
  const search = h('button', { type: 'submit', class: 'primary' }, '搜索');
  const tbody = h('tbody', {});
  const info = h('p', { class: 'muted small' });
  // A slow answer to an earlier search must not replace the rows of a later one (and the reason typed into them).
  let latest = 0;
  const load = async () => {
    const asked = ++latest;
    const query = q.value.trim();
    try {
      const res = await data<AdminAppPage>('GET', `admin/apps?q=${encodeURIComponent(query)}`);
      if (asked !== latest) return;
      tbody.dataset.query = query;
      tbody.replaceChildren(...(res.apps.length ? res.apps.map((a) => appRow(a, msg)) : [h('tr', {}, h('td', { colspan: '5', class: 'muted' }, '没有找到应用'))]));
      info.textContent = `共 ${res.total} 个应用${res.total > res.apps.length ? `，显示最新 ${res.apps.length} 个` : ''}`;
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  void load();
  return h('div', { id: 'admin-apps' }, form([h('div', { class: 'inline' }, q, search)], search, load, (e) => msg.error(messageOf(e))), info,
    h('div', { class: 'table-wrap' }, h('table', { class: 'users' },
      h('thead', {}, h('tr', {}, ...['应用', '所有者', '类型', '状态', '操作'].map((t) => h('th', {}, t)))), tbody)));
}

/** `YYYY-MM-DD` of a date input as unix seconds at local midnight (end of day for `to`). */
const dayToSeconds = (v: string, end: boolean) => (v ? String(Math.floor(new Date(`${v}T${end ? '23:59:59' : '00:00:00'}`).getTime() / 1000)) : '');

export function auditView(msg: Notice): HTMLElement {
  const fields = {
    actor: input('actor', { placeholder: '操作者' }), target: input('target', { placeholder: '对象' }),
    action: input('action', { placeholder: '如 login.failure' }),
    from: input('from', { type: 'date' }), to: input('to', { type: 'date' }),
  };
  const search = h('button', { type: 'submit', class: 'primary' }, '查询');
  const download = h('button', { type: 'button', class: 'secondary', id: 'audit-csv' }, '下载 CSV');
  const out = h('div', { id: 'audit-results' });
  const pager = h('div', { class: 'pager' });
  let page = 1;
  const query = () => new URLSearchParams({
    actor: fields.actor.value.trim(), target: fields.target.value.trim(), action: fields.action.value.trim(),
    from: dayToSeconds(fields.from.value, false), to: dayToSeconds(fields.to.value, true),
  }).toString();
  let latest = 0;
  const load = async () => {
    msg.hide();
    const asked = ++latest;
    try {
      const res = await data<AuditPage>('GET', `admin/audit?${query()}&page=${page}`);
      if (asked !== latest) return; // a later query has been asked; its answer is the one to show
      out.replaceChildren(res.entries.length ? auditTable(res.entries) : h('p', { class: 'muted' }, '没有记录'));
      const pages = Math.max(1, Math.ceil(res.total / 50));
      const prev = h('button', { type: 'button', class: 'secondary', disabled: page <= 1 }, '上一页');
      const next = h('button', { type: 'button', class: 'secondary', disabled: page >= pages }, '下一页');
      prev.addEventListener('click', () => { page -= 1; void load(); });
      next.addEventListener('click', () => { page += 1; void load(); });
      pager.replaceChildren(prev, h('span', { class: 'muted small', id: 'audit-total' }, `第 ${page} / ${pages} 页，共 ${res.total} 条`), next);
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  // The token lives in localStorage, so the file is fetched with it and handed over as a blob.
  download.addEventListener('click', () => void busy(download, async () => {
    const res = await fetch(`/api/v1/auth/admin/audit/export?${query()}`, { headers: { authorization: `Bearer ${getToken() ?? ''}` }, cache: 'no-store' });
    if (!res.ok) return msg.error(messageOf(new ApiError(res.status, `下载失败（HTTP ${res.status}）`)));
    const link = h('a', { href: URL.createObjectURL(await res.blob()), download: 'audit.csv' });
    document.body.append(link);
    link.click();
    link.remove();
  }));
  void load();
  const f = form([
    h('div', { class: 'filters' }, field('操作者', fields.actor), field('对象', fields.target), field('动作', fields.action),
      field('开始日期', fields.from), field('结束日期', fields.to)),
    h('div', { class: 'actions' }, search, download),
  ], search, async () => { page = 1; await load(); }, (e) => msg.error(messageOf(e)));
  return h('div', { id: 'admin-audit' }, f, out, pager);
}
