import { currentUser, data, loginUrl } from '../api.js';
import { busy, form, h, input, notice } from '../dom.js';
import { askBanTerms, askRoles } from './admin-user-dialogs.js';
import { messageOf, needsLogin, render } from '../layout.js';
import { roleLabel } from '../audit-labels.js';
import type { AdminUserView as UserRow, UserPage } from '../contracts.js';
import { adminTabs } from './admin-console.js';
import { otherView } from './admin-views.js';
import { fillPager } from './admin-list-parts.js';
import { t } from '../i18n.js';

const PAGE_SIZE = 20;

export async function adminPage(): Promise<void> {
  const me = await currentUser().catch(() => null);
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  if (!me.roles.includes('admin')) {
    render(
      t('admin.title'),
      [h('p', { class: 'notice error', role: 'alert' }, t('admin.adminsOnly'))],
      { me },
    );
    return;
  }
  const params = new URLSearchParams(location.search);
  const view = params.get('view') ?? '';
  if (view) return otherView(view, params, me);
  const msg = notice();
  const q = input('q', {
    type: 'search',
    placeholder: t('login.usernameOrEmail'),
    'aria-label': t('admin.searchUsers'),
  });
  const search = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('admin.search'),
  );
  const tbody = h('tbody', {});
  const pager = h('div', { class: 'pager' });
  let page = 1;
  const fail = (err: unknown) => {
    if (needsLogin(err)) return location.replace(loginUrl());
    msg.error(messageOf(err));
  };

  const rowOf = (u: UserRow): HTMLElement => {
    // No administrator bans or demotes themselves (the API refuses it too): their own row says so.
    const self = u.uid === me.uid;
    const ban = h(
      'button',
      {
        type: 'button',
        class: u.banned ? 'secondary' : 'danger',
        'data-action': 'ban',
      },
      u.banned ? t('admin.unban') : t('admin.ban'),
    );
    ban.addEventListener(
      'click',
      () =>
        void busy(ban, async () => {
          const terms = u.banned ? {} : await askBanTerms(u.username);
          if (terms === null) return;
          await data<UserRow>('POST', 'admin/users/ban', {
            username: u.username,
            banned: !u.banned,
            ...terms,
          }).then((updated) => {
            tr.replaceWith(rowOf(updated));
            msg.ok(
              t(updated.banned ? 'admin.bannedDone' : 'admin.unbannedDone', {
                username: u.username,
              }),
            );
          }, fail);
        }),
    );
    const edit = h(
      'button',
      {
        type: 'button',
        class: 'secondary small-button',
        'data-action': 'roles',
        'aria-label': t('admin.rolesOf', { username: u.username }),
      },
      t('admin.editRoles'),
    );
    edit.addEventListener(
      'click',
      () =>
        void busy(edit, async () => {
          const roles = await askRoles(u, self).catch((err: unknown) => {
            fail(err);
            return null;
          });
          if (roles === null) return;
          await data<UserRow>('POST', 'admin/users/roles', {
            username: u.username,
            roles,
          }).then((updated) => {
            tr.replaceWith(rowOf(updated));
            msg.ok(t('admin.rolesSaved', { username: u.username }));
          }, fail);
        }),
    );
    const tr = h(
      'tr',
      { 'data-username': u.username },
      h(
        'td',
        { 'data-label': t('admin.user') },
        h(
          'a',
          {
            href: `/admin?view=user&username=${encodeURIComponent(u.username)}`,
          },
          h('strong', {}, u.username),
        ),
        self
          ? h('span', { class: 'badge self', id: 'admin-self' }, t('admin.you'))
          : null,
        h('div', { class: 'muted small' }, u.display_name),
      ),
      h(
        'td',
        { 'data-label': t('label.email') },
        h('span', { class: 'break' }, u.email),
        ' ',
        h(
          'span',
          { class: u.email_verified ? 'badge ok' : 'badge' },
          u.email_verified ? t('account.verified') : t('account.unverified'),
        ),
      ),
      h(
        'td',
        { 'data-label': t('admin.status') },
        h(
          'span',
          {
            class: u.banned ? 'badge warn' : 'badge ok',
            'data-status': u.banned ? 'banned' : 'active',
          },
          u.banned ? t('admin.banned') : t('admin.active'),
        ),
      ),
      h(
        'td',
        { 'data-label': t('label.roles') },
        h(
          'div',
          { class: 'role-names' },
          ...u.roles.map((r) =>
            h(
              'span',
              { class: 'badge', title: r, 'data-role': r },
              roleLabel(r),
            ),
          ),
          edit,
        ),
      ),
      h(
        'td',
        { 'data-label': t('admin.actions') },
        self
          ? h(
              'span',
              { class: 'muted small', id: 'admin-self-note' },
              t('admin.notYourself'),
            )
          : h('div', { class: 'inline tight' }, ban),
      ),
    );
    return tr;
  };

  const load = async () => {
    msg.hide();
    try {
      const res = await data<UserPage>(
        'GET',
        `admin/users?q=${encodeURIComponent(q.value.trim())}&page=${page}`,
      );
      tbody.replaceChildren(
        ...(res.users.length
          ? res.users.map(rowOf)
          : [
              h(
                'tr',
                {},
                h('td', { colspan: '5', class: 'muted' }, t('admin.noUsers')),
              ),
            ]),
      );
      fillPager(
        pager,
        {
          page,
          total: res.total,
          pageSize: PAGE_SIZE,
          key: 'admin.userPage',
        },
        (by) => {
          page += by;
          void load();
        },
      );
    } catch (err) {
      fail(err);
    }
  };

  const searchForm = form(
    [h('div', { class: 'inline' }, q, search)],
    search,
    async () => {
      page = 1;
      await load();
    },
    fail,
  );
  render(
    t('admin.title'),
    [
      adminTabs(''),
      searchForm,
      msg.el,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'users' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, t('admin.user')),
              h('th', {}, t('label.email')),
              h('th', {}, t('admin.status')),
              h('th', {}, t('label.roles')),
              h('th', {}, t('admin.actions')),
            ),
          ),
          tbody,
        ),
      ),
      pager,
    ],
    { me, wide: true },
  );
  await load();
}
