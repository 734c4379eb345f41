/**
 * 角色 / Roles in the admin console (docs/api.md, roles): every role with its display names,
 * description and member count; its members on request; add, edit and remove. `player` and
 * `admin` are built in: they can be renamed for the pages but never removed.
 */
import { data } from '../api.js';
import type { AdminUserView, RoleView } from '../contracts.js';
import { busy, field, form, h, input, type notice } from '../dom.js';
import { language, t } from '../i18n.js';
import { messageOf } from '../layout.js';

type Notice = ReturnType<typeof notice>;
/** As many holders as the API lists for one role. */
const MEMBERS_SHOWN = 200;

interface RoleForm {
  fill(r: RoleView): void;
}

function membersList(name: string, msg: Notice): HTMLElement {
  const box = h('div', { class: 'role-members' });
  const show = h(
    'button',
    { type: 'button', class: 'secondary small-button' },
    t('roles.showMembers'),
  );
  show.addEventListener(
    'click',
    () =>
      void busy(show, async () => {
        try {
          const { users } = await data<{ users: AdminUserView[] }>(
            'GET',
            `admin/roles/members?name=${encodeURIComponent(name)}`,
          );
          box.replaceChildren(
            users.length
              ? h(
                  'ul',
                  { class: 'plain inline tight' },
                  ...users.map((u) =>
                    h(
                      'li',
                      {},
                      h(
                        'a',
                        {
                          href: `/admin?view=user&username=${encodeURIComponent(u.username)}`,
                        },
                        u.username,
                      ),
                    ),
                  ),
                )
              : h('p', { class: 'muted small' }, t('roles.noMembers')),
            ...(users.length >= MEMBERS_SHOWN
              ? [
                  h(
                    'p',
                    { class: 'muted small' },
                    t('roles.moreMembers', { n: MEMBERS_SHOWN }),
                  ),
                ]
              : []),
          );
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  box.append(show);
  return box;
}

function roleRow(
  r: RoleView,
  msg: Notice,
  editor: RoleForm,
  reload: () => Promise<void>,
): HTMLElement {
  const shown = language() === 'en' ? r.display_name_en : r.display_name;
  const edit = h(
    'button',
    { type: 'button', class: 'secondary small-button' },
    t('roles.edit'),
  );
  edit.addEventListener('click', () => editor.fill(r));
  const remove = h(
    'button',
    { type: 'button', class: 'danger small-button' },
    t('roles.remove'),
  );
  remove.addEventListener(
    'click',
    () =>
      void busy(remove, async () => {
        if (!confirm(t('roles.removeConfirm', { name: r.name, n: r.members })))
          return;
        try {
          await data('POST', 'admin/roles/remove', { name: r.name });
          msg.ok(t('roles.removed', { name: r.name }));
          await reload();
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  return h(
    'li',
    { class: 'role', 'data-role': r.name },
    h(
      'div',
      { class: 'inline tight' },
      h('strong', { class: 'role-name' }, shown),
      h('code', {}, r.name),
      h(
        'span',
        { class: 'badge', 'data-members': String(r.members) },
        t('roles.members', { n: r.members }),
      ),
      r.builtin ? h('span', { class: 'badge ok' }, t('roles.builtin')) : null,
    ),
    r.description ? h('p', { class: 'muted small' }, r.description) : null,
    membersList(r.name, msg),
    h('div', { class: 'actions' }, edit, r.builtin ? null : remove),
  );
}

export function rolesView(msg: Notice): HTMLElement {
  const list = h('ul', { class: 'plain roles', id: 'roles' });
  const name = input('role_name', {
    required: true,
    maxlength: '32',
    pattern: '[a-z0-9_\\-]{1,32}',
    autocomplete: 'off',
  });
  const zh = input('role_display_name', { maxlength: '64' });
  const en = input('role_display_name_en', { maxlength: '64' });
  const description = input('role_description', { maxlength: '500' });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary', id: 'role-save' },
    t('roles.save'),
  );
  const editor: RoleForm = {
    fill(r) {
      name.value = r.name;
      zh.value = r.display_name;
      en.value = r.display_name_en;
      description.value = r.description;
      zh.focus();
    },
  };
  const reload = async () => {
    const { roles } = await data<{ roles: RoleView[] }>('GET', 'admin/roles');
    list.replaceChildren(...roles.map((r) => roleRow(r, msg, editor, reload)));
  };
  const save = form(
    [
      field(t('roles.name'), name, t('roles.nameHint')),
      field(t('roles.displayName'), zh),
      field(t('roles.displayNameEn'), en),
      field(t('roles.description'), description),
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      const role = name.value.trim();
      await data('POST', 'admin/roles', {
        name: role,
        display_name: zh.value,
        display_name_en: en.value,
        description: description.value,
      });
      msg.ok(t('roles.saved', { name: role }));
      for (const el of [name, zh, en, description]) el.value = '';
      await reload();
    },
    (e) => msg.error(messageOf(e)),
  );
  void reload().catch((e: unknown) => msg.error(messageOf(e)));
  return h(
    'div',
    { id: 'roles-view' },
    h('p', { class: 'muted small' }, t('roles.intro')),
    h('h2', {}, t('roles.listTitle')),
    list,
    h('h2', {}, t('roles.addTitle')),
    save,
  );
}
