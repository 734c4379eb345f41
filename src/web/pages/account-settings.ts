/** The self-service sections of /account: name, password, e-mail, sessions, deletion. */
import {
  call,
  clearToken,
  data,
  setToken,
  type Me,
  type TokenEnvelope,
} from '../api.js';
import type {
  SecondFactorStatus,
  SessionList,
  SessionView,
} from '../contracts.js';
import {
  busy,
  cooldown,
  field,
  form,
  formatTime,
  h,
  input,
  notice,
} from '../dom.js';
import { messageOf } from '../layout.js';
import { hasPassword, reauthFields } from '../reauth.js';
import { t } from '../i18n.js';

type Notice = ReturnType<typeof notice>;
const section = (title: string, id: string, ...body: Array<Node | null>) =>
  h('section', { id }, h('h2', {}, title), ...body);

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

export function changeEmail(me: Me): HTMLElement {
  const msg = notice();
  const email = input('new_email', {
    type: 'email',
    autocomplete: 'email',
    placeholder: t('account.newEmail'),
  });
  const proof = reauthFields('change_email');
  const code = input('change_email_code', {
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: '6',
    placeholder: t('login.sixDigits'),
  });
  const send = h(
    'button',
    { type: 'button', class: 'secondary', id: 'send-change-code' },
    t('login.sendCode'),
  );
  send.addEventListener(
    'click',
    () =>
      void busy(send, async () => {
        msg.hide();
        try {
          const sent = await data<{ resend_after: number }>(
            'POST',
            'account/email/send_code',
            { email: email.value.trim(), ...proof.proof() },
          );
          proof.reset();
          msg.ok(t('account.codeSentToNew'));
          setTimeout(() => cooldown(send, sent.resend_after || 60), 0);
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('account.changeEmail'),
  );
  const f = form(
    [
      field(t('account.newEmailLabel'), email),
      proof.el,
      h('div', { class: 'inline' }, field(t('label.code'), code), send),
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      const changed = await data<{ email: string }>('POST', 'account/email', {
        email: email.value.trim(),
        code: code.value.trim(),
      });
      msg.ok(t('account.emailChanged', { email: changed.email }));
      // Every place on the page that names the address shows the new one; it is verified by the code.
      for (const shown of document.querySelectorAll('.current-email'))
        shown.textContent = changed.email;
      document.getElementById('verify-email')?.remove();
      const status = document.getElementById('email-status');
      if (status) {
        status.textContent = t('account.verified');
        status.className = 'badge ok';
      }
      email.value = '';
      code.value = '';
    },
    (e) => msg.error(messageOf(e)),
  );
  // The hint names the proof this account gives: its password, or (without one) what reauth.ts offers instead.
  const hint = h('span', {}, t('account.changeEmailHint'));
  void hasPassword().then((set) => {
    if (!set) hint.textContent = t('account.changeEmailHintNoPassword');
  });
  const current =
    me.email === ''
      ? h(
          'span',
          { class: 'current-email', id: 'change-email-current' },
          t('account.notSet'),
        )
      : h(
          'span',
          { class: 'current-email', id: 'change-email-current' },
          me.email,
        );
  return section(
    me.email === '' ? t('account.addEmail') : t('account.changeEmail'),
    'change-email',
    h('p', { class: 'muted small' }, t('account.currentEmail'), current, hint),
    msg.el,
    f,
  );
}

/** A short description of a user agent: enough to tell a phone from a desktop. */
export function deviceOf(ua: string): string {
  if (!ua) return t('account.unknownDevice');
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Chrome\//.test(ua)
      ? 'Chrome'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Safari\//.test(ua)
          ? 'Safari'
          : '';
  return [browser, os].filter(Boolean).join(' · ') || ua.slice(0, 40);
}

/**
 * Where a sign-in came from: device and address, or, for an OAuth refresh-token family, that
 * an application holds it (the server records no address for those).
 */
export function sessionOrigin(s: SessionView): string {
  if (s.kind === 'oauth')
    return s.ip || s.user_agent
      ? t('account.oauthFrom', { device: deviceOf(s.user_agent), ip: s.ip })
      : t('account.oauthGrant');
  return `${deviceOf(s.user_agent)} · ${s.ip}`;
}

function sessionItem(
  s: SessionView,
  end: (s: SessionView, button: HTMLButtonElement) => void,
): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: 'danger small-button', 'data-session': s.id },
    t('account.endSession'),
  );
  button.addEventListener('click', () => end(s, button));
  return h(
    'li',
    { class: 'session', 'data-session-id': s.id, 'data-kind': s.kind },
    h(
      'div',
      { class: 'session-main' },
      h('strong', {}, s.app_name),
      ' ',
      s.current
        ? h('span', { class: 'badge ok' }, t('account.thisDevice'))
        : null,
      s.kind === 'oauth'
        ? h('span', { class: 'badge' }, t('account.thirdPartyGrant'))
        : null,
      h('div', { class: 'muted small' }, sessionOrigin(s)),
      h(
        'div',
        { class: 'muted small' },
        t('account.sessionTimes', {
          signedIn: formatTime(s.created_at),
          used: formatTime(s.last_used_at),
        }),
      ),
    ),
    s.current ? null : button,
  );
}

export function sessions(): HTMLElement {
  const msg = notice();
  const list = h('ul', { class: 'plain sessions', id: 'sessions' });
  const endOthers = h(
    'button',
    { type: 'button', class: 'danger', id: 'end-other-sessions' },
    t('account.endOthers'),
  );
  const load = async () => {
    try {
      const { sessions: all } = await data<SessionList>(
        'GET',
        'account/sessions',
      );
      list.replaceChildren(...all.map((s) => sessionItem(s, endOne)));
      if (all.length === 0)
        list.append(
          h('li', { class: 'muted small' }, t('account.noOtherSessions')),
        );
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  const endOne = (s: SessionView, button: HTMLButtonElement) =>
    void busy(button, async () => {
      msg.hide();
      try {
        await data('POST', 'account/sessions/end', { id: s.id });
        msg.ok(t('account.sessionEnded', { app: s.app_name }));
        await load();
      } catch (err) {
        msg.error(messageOf(err));
      }
    });
  endOthers.addEventListener(
    'click',
    () =>
      void busy(endOthers, async () => {
        msg.hide();
        try {
          const { ended } = await data<{ ended: number }>(
            'POST',
            'account/sessions/end_others',
          );
          msg.ok(t('account.othersEnded', { n: ended }));
          await load();
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  document.addEventListener('sessions-changed', () => void load());
  void load();
  return section(
    t('account.sessions'),
    'session-list',
    h('p', { class: 'muted small' }, t('account.sessionsHint')),
    msg.el,
    list,
    h('div', { class: 'actions' }, endOthers),
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
