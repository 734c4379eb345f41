/** The account page's e-mail section: a code to the new address, then the change. */
import { data, type Me } from '../api.js';
import {
  busy,
  cooldown,
  field,
  form,
  h,
  input,
  notice,
  sixDigitInput,
} from '../dom.js';
import { messageOf } from '../layout.js';
import { hasPassword, reauthFields } from '../reauth.js';
import { t } from '../i18n.js';
import { section } from './account-sessions.js';

export function changeEmail(me: Me): HTMLElement {
  const msg = notice();
  const email = input('new_email', {
    type: 'email',
    autocomplete: 'email',
    placeholder: t('account.newEmail'),
  });
  const proof = reauthFields('change_email');
  const code = sixDigitInput('change_email_code');
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
