import { currentUser, data, loginUrl } from '../api.js';
import { busy, form, h, input, notice } from '../dom.js';
import { messageOf, needsLogin, render } from '../layout.js';
import { roleLabel } from '../audit-labels.js';
import type { AdminUserView as UserRow, UserPage } from '../contracts.js';
import { adminTabs, appsView, auditView, dashboardView, userDetailView } from './admin-console.js';
import { providersView } from './admin-providers.js';
import { webhooksView } from './admin-webhooks.js';

const PAGE_SIZE = 20;

export async function adminPage(): Promise<void> {
  const me = await currentUser().catch(() => null);
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  if (!me.roles.includes('admin')) {
    render('用户管理', [h('p', { class: 'notice error', role: 'alert' }, '需要管理员权限')], { me });
    return;
  }
  const params = new URLSearchParams(location.search);
  const view = params.get('view') ?? '';
  if (view) return otherView(view, params, me);
  const msg = notice();
  const q = input('q', { type: 'search', placeholder: '用户名或邮箱', 'aria-label': '搜索用户' });
  const search = h('button', { type: 'submit', class: 'primary' }, '搜索');
  const tbody = h('tbody', {});
  const pager = h('div', { class: 'pager' });
  let page = 1;
  const fail = (err: unknown) => {
    if (needsLogin(err)) return location.replace(loginUrl());
    msg.error(messageOf(err));
  };

  /** A ban's reason and length, asked for at the click; a dismissed question means none (permanent). */
  const banTerms = (): { reason?: string; until?: string } => {
    const reason = prompt('封禁原因（会在登录时告诉对方，可留空）')?.trim();
    const days = Number(prompt('封禁天数（留空为永久）')?.trim() || NaN);
    return {
      ...(reason && { reason }),
      ...(Number.isFinite(days) && days > 0 && { until: new Date(Date.now() + days * 86_400_000).toISOString() }),
    };
  };

  const rowOf = (u: UserRow): HTMLElement => {
    const ban = h('button', { type: 'button', class: u.banned ? 'secondary' : 'danger', 'data-action': 'ban' }, u.banned ? '解封' : '封禁');
    ban.addEventListener('click', () => void busy(ban, async () => {
      await data<UserRow>('POST', 'admin/users/ban', u.banned ? { username: u.username, banned: false } : { username: u.username, banned: true, ...banTerms() })
        .then((updated) => tr.replaceWith(rowOf(updated)), fail);
    }));
    const roles = input('roles', { value: u.roles.join(','), 'aria-label': `${u.username} 的角色` });
    const save = h('button', { type: 'button', class: 'secondary', 'data-action': 'roles' }, '保存角色');
    save.addEventListener('click', () => void busy(save, async () => {
      const list = roles.value.split(/[\s,，]+/).filter(Boolean);
      await data<UserRow>('POST', 'admin/users/roles', { username: u.username, roles: list })
        .then((updated) => { tr.replaceWith(rowOf(updated)); msg.ok(`已更新 ${u.username} 的角色`); }, fail);
    }));
    const unlock = h('button', { type: 'button', class: 'secondary', 'data-action': 'remove-second-factor' }, '移除两步验证');
    unlock.addEventListener('click', () => void busy(unlock, async () => {
      if (!confirm(`移除 ${u.username} 的身份验证器和全部通行密钥？`)) return;
      await data('POST', 'admin/users/second_factor/remove', { username: u.username })
        .then(() => msg.ok(`已移除 ${u.username} 的两步验证`), fail);
    }));
    const tr = h('tr', { 'data-username': u.username },
      h('td', { 'data-label': '用户' }, h('a', { href: `/admin?view=user&username=${encodeURIComponent(u.username)}` }, h('strong', {}, u.username)), h('div', { class: 'muted small' }, u.display_name)),
      h('td', { 'data-label': '邮箱' }, u.email, ' ', h('span', { class: u.email_verified ? 'badge ok' : 'badge' }, u.email_verified ? '已验证' : '未验证')),
      h('td', { 'data-label': '状态' }, h('span', { class: u.banned ? 'badge warn' : 'badge ok', 'data-status': u.banned ? 'banned' : 'active' }, u.banned ? '已封禁' : '正常')),
      h('td', { 'data-label': '角色' },
        h('div', { class: 'role-names' }, ...u.roles.map((r) => h('span', { class: 'badge', title: r, 'data-role': r }, roleLabel(r)))),
        h('div', { class: 'inline tight' }, roles, save)),
      h('td', { 'data-label': '操作' }, h('div', { class: 'inline tight' }, ban, unlock)),
    );
    return tr;
  };

  const load = async () => {
    msg.hide();
    try {
      const res = await data<UserPage>('GET', `admin/users?q=${encodeURIComponent(q.value.trim())}&page=${page}`);
      tbody.replaceChildren(...(res.users.length ? res.users.map(rowOf) : [h('tr', {}, h('td', { colspan: '5', class: 'muted' }, '没有找到用户'))]));
      const pages = Math.max(1, Math.ceil(res.total / PAGE_SIZE));
      const prev = h('button', { type: 'button', class: 'secondary', disabled: page <= 1 }, '上一页');
      const next = h('button', { type: 'button', class: 'secondary', disabled: page >= pages }, '下一页');
      prev.addEventListener('click', () => { page -= 1; void load(); });
      next.addEventListener('click', () => { page += 1; void load(); });
      pager.replaceChildren(prev, h('span', { class: 'muted small' }, `第 ${page} / ${pages} 页，共 ${res.total} 人`), next);
    } catch (err) {
      fail(err);
    }
  };

  const searchForm = form([h('div', { class: 'inline' }, q, search)], search, async () => {
    page = 1;
    await load();
  }, fail);
  render('用户管理', [
    adminTabs(''), searchForm, msg.el,
    h('div', { class: 'table-wrap' }, h('table', { class: 'users' },
      h('thead', {}, h('tr', {}, h('th', {}, '用户'), h('th', {}, '邮箱'), h('th', {}, '状态'), h('th', {}, '角色'), h('th', {}, '操作'))),
      tbody)),
    pager,
  ], { me, wide: true });
  await load();
}

/** The views beside user search, chosen by `?view=`. */
async function otherView(view: string, params: URLSearchParams, me: NonNullable<Awaited<ReturnType<typeof currentUser>>>): Promise<void> {
  const msg = notice();
  const titles: Record<string, string> = { dashboard: '概览', user: '用户详情', apps: '应用管理', providers: '登录方式', webhooks: 'Webhook', audit: '审计日志' };
  const body = view === 'dashboard' ? await dashboardView(msg)
    : view === 'user' ? await userDetailView(params.get('username') ?? '', msg)
      : view === 'apps' ? appsView(msg, params.get('q') ?? '')
        : view === 'providers' ? providersView(msg)
          : view === 'webhooks' ? webhooksView(msg)
          : view === 'audit' ? auditView(msg) : h('p', { class: 'notice error' }, '找不到该页面');
  render(titles[view] ?? '管理', [adminTabs(view === 'user' ? '' : view), msg.el, body], { me, wide: true });
}
