/** Every application, for administrators: search, disable or enable with a reason, admin scopes. */
import { data } from '../api.js';
import type { AdminAppPage, AdminAppView } from '../contracts.js';
import { busy, form, h, input, type notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { adminScopesCell } from './admin-app-scopes.js';
import { requiredRolesCell } from './admin-app-roles.js';
import { t } from '../i18n.js';

type Notice = ReturnType<typeof notice>;

function appRow(a: AdminAppView, msg: Notice): HTMLElement {
  const active = a.status === 'active';
  const reason = input('reason', {
    placeholder: active ? t('admin.disableReason') : t('admin.enableReason'),
    'aria-label': t('admin.reasonFor', { clientId: a.client_id }),
  });
  const toggle = h(
    'button',
    {
      type: 'button',
      class: active ? 'danger' : 'secondary',
      'data-action': 'status',
    },
    active ? t('console.disable') : t('console.enable'),
  );
  toggle.addEventListener(
    'click',
    () =>
      void busy(toggle, async () => {
        try {
          const updated = await data<AdminAppView>(
            'POST',
            'admin/apps/status',
            { client_id: a.client_id, enabled: !active, reason: reason.value },
          );
          tr.replaceWith(appRow(updated, msg));
          msg.ok(
            t('admin.appToggled', {
              app: updated.display_name,
              state:
                updated.status === 'active'
                  ? t('console.enabled')
                  : t('console.disabled'),
            }),
          );
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  const tr = h(
    'tr',
    { 'data-client-id': a.client_id },
    h(
      'td',
      { 'data-label': t('admin.apps') },
      h('strong', {}, a.display_name),
      h('div', { class: 'muted small break' }, a.client_id),
    ),
    h(
      'td',
      { 'data-label': t('admin.owner') },
      h(
        'a',
        { href: `/admin?view=user&username=${encodeURIComponent(a.owner)}` },
        a.owner,
      ),
    ),
    h(
      'td',
      { 'data-label': t('console.type') },
      a.client_type === 'public' ? t('admin.public') : t('admin.confidential'),
    ),
    h(
      'td',
      { 'data-label': t('admin.status') },
      h(
        'span',
        { class: active ? 'badge ok' : 'badge warn', 'data-status': a.status },
        active ? t('console.enabled') : t('console.disabled'),
      ),
      a.status_reason
        ? h('div', { class: 'muted small' }, a.status_reason)
        : null,
    ),
    // Only a client_credentials token can carry admin scopes; one granted before the grant was dropped can still be revoked.
    h(
      'td',
      { 'data-label': t('admin.adminScopes') },
      a.grant_types.includes('client_credentials') || a.admin_scopes.length
        ? adminScopesCell(a, msg, (updated) =>
            tr.replaceWith(appRow(updated, msg)),
          )
        : h(
            'span',
            { class: 'muted small', 'data-admin-scopes-off': '' },
            t('admin.adminScopesNeedGrant'),
          ),
    ),
    h(
      'td',
      { 'data-label': t('roles.requiredRoles') },
      requiredRolesCell(a, msg),
    ),
    h(
      'td',
      { 'data-label': t('admin.actions') },
      h('div', { class: 'inline tight' }, reason, toggle),
    ),
  );
  return tr;
}

export function appsView(msg: Notice, initial: string): HTMLElement {
  const q = input('q', {
    type: 'search',
    placeholder: t('admin.appSearch'),
    'aria-label': t('admin.searchApps'),
    value: initial,
  });
  const search = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('admin.search'),
  );
  const tbody = h('tbody', {});
  const info = h('p', { class: 'muted small' });
  // A slow answer to an earlier search must not replace the rows of a later one (and the reason typed into them).
  let latest = 0;
  const load = async () => {
    const asked = ++latest;
    const query = q.value.trim();
    try {
      const res = await data<AdminAppPage>(
        'GET',
        `admin/apps?q=${encodeURIComponent(query)}`,
      );
      if (asked !== latest) return;
      tbody.dataset.query = query;
      tbody.replaceChildren(
        ...(res.apps.length
          ? res.apps.map((a) => appRow(a, msg))
          : [
              h(
                'tr',
                {},
                h('td', { colspan: '6', class: 'muted' }, t('admin.noApps')),
              ),
            ]),
      );
      info.textContent = t('admin.appTotal', {
        total: res.total,
        shown:
          res.total > res.apps.length
            ? t('admin.appShown', { n: res.apps.length })
            : '',
      });
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  void load();
  return h(
    'div',
    { id: 'admin-apps' },
    form([h('div', { class: 'inline' }, q, search)], search, load, (e) =>
      msg.error(messageOf(e)),
    ),
    info,
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
            ...[
              t('admin.apps'),
              t('admin.owner'),
              t('console.type'),
              t('admin.status'),
              t('admin.adminScopes'),
              t('roles.requiredRoles'),
              t('admin.actions'),
            ].map((label) => h('th', {}, label)),
          ),
        ),
        tbody,
      ),
    ),
  );
}
