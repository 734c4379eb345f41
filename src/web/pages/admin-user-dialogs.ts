/**
 * The questions the user list asks before it acts: a ban's reason and end, and a user's roles
 * picked from the roles that exist. Each answers null on Cancel, so nothing changes then.
 */
import { data } from '../api.js';
import type { RoleView } from '../contracts.js';
import { askInDialog, DialogRefusal } from '../dialog.js';
import { field, h, input } from '../dom.js';
import { roleLabel } from '../audit-labels.js';
import { t } from '../i18n.js';

export interface BanTerms {
  reason?: string;
  /** ISO-8601, in the future; absent: permanent. */
  until?: string;
}

const HOUR_MS = 3_600_000;
const UNIT_MS: Record<string, number> = { hours: HOUR_MS, days: 24 * HOUR_MS };
/** The longest ban given as a duration: ten years of days. */
const MAX_AMOUNT = 3650;
const ROLE_NAME = /^[a-z0-9_-]{1,32}$/;

function radio(
  name: string,
  value: string,
  label: string,
  checked = false,
): { el: HTMLElement; box: HTMLInputElement } {
  const box = h('input', {
    type: 'radio',
    name,
    value,
    id: `f-${name}-${value}`,
    checked,
  });
  return { el: h('label', { class: 'check', for: box.id }, box, label), box };
}

/** The `datetime-local` value of a moment, in the browser's zone. */
const localInputValue = (ms: number): string => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};

/** Asks for a ban's reason and its end: never, after a number of hours or days, or at a date and time. */
export function askBanTerms(username: string): Promise<BanTerms | null> {
  const reason = input('ban_reason', { maxlength: '500', autocomplete: 'off' });
  const forever = radio('ban_end', 'forever', t('admin.banEndForever'), true);
  const after = radio('ban_end', 'after', t('admin.banEndAfter'));
  const at = radio('ban_end', 'at', t('admin.banEndAt'));
  const amount = input('ban_amount', {
    type: 'number',
    min: '1',
    max: String(MAX_AMOUNT),
    value: '7',
    'aria-label': t('admin.banAmount'),
  });
  const unit = h(
    'select',
    { name: 'ban_unit', 'aria-label': t('admin.banUnit') },
    h('option', { value: 'days', selected: true }, t('admin.banDays')),
    h('option', { value: 'hours' }, t('admin.banHours')),
  );
  const date = input('ban_until', {
    type: 'datetime-local',
    min: localInputValue(Date.now()),
    'aria-label': t('admin.banEndAt'),
  });
  // Typing in a choice's own fields picks that choice.
  for (const [el, choice] of [
    [amount, after],
    [unit, after],
    [date, at],
  ] as const)
    el.addEventListener('input', () => {
      choice.box.checked = true;
    });
  const ends = h(
    'fieldset',
    { class: 'ban-end' },
    h('legend', {}, t('admin.banEnds')),
    forever.el,
    h('div', { class: 'inline tight' }, after.el, amount, unit),
    h('div', { class: 'inline tight' }, at.el, date),
  );
  return askInDialog<BanTerms>({
    id: 'ban-dialog',
    title: t('admin.banTitle', { username }),
    confirmLabel: t('admin.banConfirm'),
    confirmClass: 'danger',
    body: [field(t('admin.banReason'), reason, t('admin.banReasonHint')), ends],
    accept: () => {
      const terms: BanTerms = reason.value.trim()
        ? { reason: reason.value.trim() }
        : {};
      if (after.box.checked) {
        const n = Number(amount.value);
        if (!Number.isInteger(n) || n < 1 || n > MAX_AMOUNT)
          throw new DialogRefusal(
            t('admin.banAmountInvalid', { max: MAX_AMOUNT }),
          );
        return {
          ...terms,
          until: new Date(Date.now() + n * UNIT_MS[unit.value]!).toISOString(),
        };
      }
      if (at.box.checked) {
        const end = date.value ? new Date(date.value).getTime() : NaN;
        if (!Number.isFinite(end) || end <= Date.now())
          throw new DialogRefusal(t('admin.banDateInvalid'));
        return { ...terms, until: new Date(end).toISOString() };
      }
      return terms;
    },
  });
}

function roleChoice(
  name: string,
  members: number | undefined,
  checked: boolean,
  locked: boolean,
): HTMLElement {
  const box = h('input', {
    type: 'checkbox',
    name: 'role',
    value: name,
    checked,
    disabled: locked,
  });
  const label = roleLabel(name);
  return h(
    'label',
    { class: 'check role-choice', 'data-role': name },
    box,
    label,
    label === name ? null : h('code', { class: 'muted small' }, name),
    members === undefined
      ? null
      : h(
          'span',
          { class: 'muted small' },
          t('admin.roleMembers', { n: members }),
        ),
    locked ? h('span', { class: 'hint' }, t('admin.ownAdminLocked')) : null,
  );
}

/**
 * Picks a user's roles among those that exist (the user's own included), or a new one typed in.
 * `self`: the administrator's own row, whose `admin` box cannot be unticked.
 */
export async function askRoles(
  user: { username: string; roles: string[] },
  self: boolean,
): Promise<string[] | null> {
  const { roles } = await data<{ roles: RoleView[] }>('GET', 'admin/roles');
  const known = new Map(roles.map((r) => [r.name, r.members]));
  const names = [
    ...roles.map((r) => r.name),
    ...user.roles.filter((r) => !known.has(r)),
  ];
  const choices = h(
    'div',
    { class: 'role-choices', role: 'group', 'aria-label': t('label.roles') },
    ...names.map((name) =>
      roleChoice(
        name,
        known.get(name),
        user.roles.includes(name),
        self && name === 'admin' && user.roles.includes('admin'),
      ),
    ),
  );
  const added = input('new_role', {
    id: 'f-new_role',
    maxlength: '32',
    autocomplete: 'off',
    placeholder: t('admin.newRolePlaceholder'),
    'aria-label': t('admin.newRole'),
  });
  const add = h(
    'button',
    { type: 'button', class: 'secondary', 'data-action': 'add-role' },
    t('admin.addRole'),
  );
  const addHint = h(
    'small',
    { class: 'hint', id: 'new-role-hint' },
    t('admin.newRoleHint'),
  );
  const addRole = () => {
    const name = added.value.trim().toLowerCase();
    if (!ROLE_NAME.test(name)) {
      addHint.textContent = t('admin.newRoleInvalid');
      addHint.classList.add('error');
      return;
    }
    const existing = choices.querySelector<HTMLInputElement>(
      `input[value="${name}"]`,
    );
    if (existing) existing.checked = true;
    else choices.append(roleChoice(name, undefined, true, false));
    added.value = '';
    addHint.textContent = t('admin.newRoleHint');
    addHint.classList.remove('error');
  };
  add.addEventListener('click', addRole);
  // Enter in the new name adds it rather than saving the dialog.
  added.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      addRole();
    }
  });
  return askInDialog<string[]>({
    id: 'roles-dialog',
    title: t('admin.rolesOf', { username: user.username }),
    confirmLabel: t('admin.saveRoles'),
    body: [
      choices,
      h(
        'div',
        { class: 'field' },
        h('label', { for: added.id }, t('admin.newRole')),
        h('div', { class: 'inline tight' }, added, add),
        addHint,
      ),
    ],
    accept: () => {
      const picked = [
        ...choices.querySelectorAll<HTMLInputElement>('input[name=role]'),
      ]
        .filter((b) => b.checked)
        .map((b) => b.value);
      if (added.value.trim())
        throw new DialogRefusal(t('admin.newRoleNotAdded'));
      return picked;
    },
  });
}
