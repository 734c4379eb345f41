/**
 * The admin API scopes of one application in the console's apps view (docs/api.md §15.3):
 * a box per scope and a save button. Its client_credentials tokens that ask for a ticked scope
 * may call the matching admin endpoints; unticking one stops tokens already issued.
 */
import { data } from '../api.js';
import type { AdminAppView } from '../contracts.js';
import { busy, h, type notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';

const SCOPES: Array<[string, string]> = [
  ['admin:users:read', t('admin.scopeUsersRead')],
  ['admin:users:ban', t('admin.scopeUsersBan')],
  ['admin:users:roles', t('admin.scopeUsersRoles')],
];

export function adminScopesCell(
  a: AdminAppView,
  msg: ReturnType<typeof notice>,
  saved: (app: AdminAppView) => void,
): HTMLElement {
  const boxes = SCOPES.map(([scope, label]) => {
    const box = h('input', {
      type: 'checkbox',
      name: 'admin_scopes',
      value: scope,
      checked: a.admin_scopes.includes(scope),
    });
    return h('label', { class: 'check small', title: scope }, box, ` ${label}`);
  });
  const save = h(
    'button',
    {
      type: 'button',
      class: 'secondary small-button',
      'data-action': 'admin-scopes',
    },
    t('admin.scopesSave'),
  );
  save.addEventListener(
    'click',
    () =>
      void busy(save, async () => {
        const scopes = boxes
          .map((l) => l.querySelector('input')!)
          .filter((b) => b.checked)
          .map((b) => b.value);
        try {
          const updated = await data<AdminAppView>(
            'POST',
            'admin/apps/admin_scopes',
            { client_id: a.client_id, scopes },
          );
          msg.ok(t('admin.scopesSaved', { app: updated.display_name }));
          saved(updated);
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  return h(
    'div',
    { class: 'admin-scopes', 'data-admin-scopes': a.admin_scopes.join(' ') },
    ...boxes,
    save,
  );
}
