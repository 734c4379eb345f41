/** The self-service sections of /account: name, password, e-mail, sessions, deletion. */
import {
  call,
  clearToken,
  data,
  setToken,
  type Me,
  type TokenEnvelope,
} from '../api.js';
import type { SecondFactorStatus } from '../contracts.js';
import { field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { hasPassword, reauthFields } from '../reauth.js';
import { t } from '../i18n.js';
import { section } from './account-sessions.js';
export { changeEmail } from './account-email.js';
export { deviceOf, sessionOrigin, sessions } from './account-sessions.js';

type Notice = ReturnType<typeof notice>;
export function editName(me: Me): HTMLElement {
  const msg = notice();
  const name = input('display_name', {
    maxlength: '64',
    autocomplete: 'nickname',
  });
  name.value = me.display_name;
  const submit = h(
    'button',
    { type: 'submit', class: 'secondary' },
    t('account.saveName'),
  );
  const f = form(
    [
      h(
        'div',
        { class: 'inline' },
        field(t('label.display_name'), name),
        submit,
      ),
    ],
    submit,
    async () => {
      msg.hide();
      const user = await data<{ display_name: string }>(
        'POST',
        'account/profile',
        { display_name: name.value },
      );
      name.value = user.display_name;
      const shown = document.getElementById('profile-display-name');
      if (shown) shown.textContent = user.display_name;
      msg.ok(t('account.nameSaved'));
    },
    (e) => msg.error(messageOf(e)),
  );
  return section(t('account.editName'), 'edit-name', msg.el, f);
}

export function changePassword(): HTMLElement {
  const msg = notice();
  const proof = reauthFields('current', 'current_password');
  const next = input('new_password', {
    type: 'password',
    autocomplete: 'new-password',
    placeholder: t('account.passwordPlaceholder'),
  });
  const endOthers = h('input', {
    type: 'checkbox',
    id: 'f-end_other_sessions',
    name: 'end_other_sessions',
    checked: true,
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('account.changePassword'),
  );
  const heading = h('h2', {}, t('account.changePassword'));
  // An account made by signing in with another account has no password yet: it sets one, not changes it.
  let setting = false;
  void hasPassword().then((set) => {
    setting = !set;
    if (set) return;
    heading.textContent = t('account.setPassword');
    submit.textContent = t('account.setPassword');
    next.setAttribute('aria-label', t('account.newPasswordToSet'));
  });
  const f = form(
    [
      proof.el,
      field(t('label.new_password'), next),
      h('label', { class: 'check' }, endOthers, t('account.endOthersToo')),
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      const env = await call<TokenEnvelope>('POST', 'account/password', {
        ...proof.proof(),
        new_password: next.value,
        end_other_sessions: endOthers.checked,
      });
      // The answer carries a fresh token of this sign-in: the old one may have been cut off.
      setToken(env.access_token);
      proof.reset();
      next.value = '';
      msg.ok(
        setting
          ? t('account.passwordSet')
          : endOthers.checked
            ? t('account.passwordChangedEnded')
            : t('account.passwordChanged'),
      );
      document.dispatchEvent(new Event('sessions-changed'));
      await showRemainingPasskeys(left);
    },
    (e) => msg.error(messageOf(e)),
  );
  const left = h('div', { id: 'password-passkeys' });
  return h('section', { id: 'change-password' }, heading, msg.el, left, f);
}

/** Passkeys sign in whatever the password is: after a change, the owner sees which ones are left. */
async function showRemainingPasskeys(box: HTMLElement): Promise<void> {
  const { passkeys } = await data<SecondFactorStatus>(
    'GET',
    'account/second_factor',
  );
  box.replaceChildren(
    ...(passkeys.length === 0
      ? []
      : [
          h(
            'div',
            { class: 'notice warning' },
            h('p', {}, t('account.passkeysRemain')),
            h(
              'ul',
              {},
              ...passkeys.map((p) =>
                h(
                  'li',
                  {},
                  h('strong', {}, p.name),
                  ` ${t('account.addedAt', { time: formatTime(p.created_at) })}`,
                ),
              ),
            ),
          ),
        ]),
  );
}

export function deleteAccount(me: Me): HTMLElement {
  // The server refuses an administrator's own deletion; the page says why instead of asking.
  if (me.roles.includes('admin')) {
    const why = h(
      'details',
      { id: 'delete-section' },
      h('summary', {}, t('account.deleteAccount')),
      h(
        'p',
        { class: 'notice warning small', id: 'delete-admin' },
        t('account.adminCannotDelete'),
      ),
    );
    return h(
      'section',
      { id: 'danger' },
      h('h2', {}, t('account.danger')),
      why,
    );
  }
  const msg: Notice = notice();
  const proof = reauthFields('delete');
  const submit = h(
    'button',
    { type: 'submit', class: 'danger', id: 'delete-account' },
    t('account.deleteForever'),
  );
  const f = form(
    [proof.el, submit],
    submit,
    async () => {
      msg.hide();
      // Only a complete form is worth the question: an empty field is pointed out first.
      if (!proof.check()) return;
      if (!confirm(t('account.deleteConfirm'))) return;
      await data('POST', 'account/delete', proof.proof());
      clearToken();
      location.replace('/login?deleted=1');
    },
    (e) => msg.error(messageOf(e)),
  );
  const box = h(
    'details',
    { id: 'delete-section' },
    h('summary', {}, t('account.deleteAccount')),
    h('p', { class: 'muted small' }, t('account.deleteHint')),
    msg.el,
    f,
  );
  return h('section', { id: 'danger' }, h('h2', {}, t('account.danger')), box);
}
