/**
 * The required roles of one application in the console (docs/api.md, roles): any one of them
 * admits a person; none admits everyone. Set through apps/update, as the app's owner does.
 */
import { data } from '../api.js';
import type { AppView } from '../contracts.js';
import { busy, h, input, type notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';

/** Role names as typed: separated by commas or spaces. */
export const roleNames = (text: string): string[] =>
  text
    .split(/[\s,，]+/)
    .map((r) => r.trim())
    .filter(Boolean);

export function requiredRolesCell(
  a: AppView,
  msg: ReturnType<typeof notice>,
): HTMLElement {
  const roles = input('required_roles', {
    value: a.required_roles.join(', '),
    placeholder: t('roles.everyone'),
    'aria-label': `${t('roles.requiredRoles')} ${a.client_id}`,
    title: t('roles.requiredRolesHint'),
    size: '14',
  });
  const save = h(
    'button',
    {
      type: 'button',
      class: 'secondary small-button',
      'data-action': 'required-roles',
    },
    t('console.save'),
  );
  save.addEventListener(
    'click',
    () =>
      void busy(save, async () => {
        try {
          const updated = await data<AppView>('POST', 'apps/update', {
            client_id: a.client_id,
            required_roles: roleNames(roles.value),
          });
          roles.value = updated.required_roles.join(', ');
          msg.ok(t('roles.requiredSaved', { app: updated.display_name }));
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  return h(
    'div',
    {
      class: 'inline tight required-roles',
      'data-required-roles': a.required_roles.join(' '),
    },
    roles,
    save,
  );
}
