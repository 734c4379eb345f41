/** /reset-password: a code to the address on the account, then the new password. */
import { data } from '../api.js';
import { field, form, h, input, notice } from '../dom.js';
import { required, showFieldErrors } from '../field-errors.js';
import { messageOf, render } from '../layout.js';
import { withNext } from './login.js';
import { mailedCodeRow } from './mailed-code.js';
import { t } from '../i18n.js';

export function resetPasswordPage(): void {
  const msg = notice();
  const email = input('email', {
    type: 'email',
    autocomplete: 'email',
    required: true,
  });
  const { code, codeRow, box } = mailedCodeRow(
    'code',
    'reset_password',
    () => email.value,
    msg,
  );
  const password = input('new_password', {
    type: 'password',
    autocomplete: 'new-password',
    required: true,
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('reset.title'),
  );
  const f = form(
    [
      field(t('label.email'), email),
      box.el,
      codeRow,
      field(t('label.new_password'), password, t('reset.passwordHint')),
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      if (
        !showFieldErrors([
          [email, required(email, t('label.email'))],
          [code, required(code, t('label.code'))],
          [password, required(password, t('label.new_password'))],
        ])
      )
        return;
      await data('POST', 'reset_password', {
        email: email.value.trim(),
        code: code.value.trim(),
        new_password: password.value,
      });
      f.hidden = true;
      // Passkeys sign in whatever the password is; the reset's e-mail lists them, /account removes them.
      msg.ok(t('reset.done'));
    },
    (e) => msg.error(messageOf(e)),
  );
  render(t('reset.title'), [
    msg.el,
    f,
    h(
      'p',
      { class: 'links' },
      h('a', { href: withNext('/login') }, t('reset.back')),
    ),
  ]);
  void box.start();
}
