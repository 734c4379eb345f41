/**
 * The owner's proof that /account sends with every change to how the account is signed in
 * to (docs/api.md §10): the current password, and the authenticator code when it is on. An
 * account without a password may instead have a code mailed to its address and type it.
 */
import { data, type Me } from './api.js';
import { busy, cooldown, field, h, input, sixDigitInput } from './dom.js';
import { messageOf } from './layout.js';
import { proofWithoutPassword } from './field-labels.js';
import { required, showFieldErrors } from './field-errors.js';
import type { AccountLinksData, SecondFactorStatus } from './contracts.js';
import { t } from './i18n.js';

let totpOn: Promise<boolean> | undefined;
let passwordSet: Promise<boolean> | undefined;
let address: Promise<string> | undefined;

/**
 * Whether the account has a password: one made by signing in with another account has none,
 * and proves itself by signing in again with a linked provider instead (docs/api.md §14.4).
 */
export function hasPassword(): Promise<boolean> {
  passwordSet ??= data<AccountLinksData>('GET', 'account/upstream').then(
    (a) => a.has_password,
    () => true,
  );
  return passwordSet;
}

/** The account's address, where a `reauth` code goes; empty when it has none. */
function accountEmail(): Promise<string> {
  address ??= data<Me>('GET', 'me').then(
    (me) => me.email,
    () => '',
  );
  return address;
}

/** Whether the authenticator is on: asked once, then told by the second-factor sections. */
function authenticatorOn(): Promise<boolean> {
  totpOn ??= data<SecondFactorStatus>('GET', 'account/second_factor').then(
    (s) => s.totp,
  );
  return totpOn;
}

/** The second-factor sections tell every proof form when the authenticator went on or off. */
export function authenticatorChanged(on: boolean): void {
  totpOn = Promise.resolve(on);
  document.dispatchEvent(new Event('authenticator-changed'));
}

export interface ReauthFields {
  el: HTMLElement;
  /** The body fields of the proof. */
  proof(): { current_password?: string; otp?: string; email_code?: string };
  /** Marks an empty password (or code, when asked for) under its field; true when both are filled. */
  check(): boolean;
  reset(): void;
}

/**
 * The field for a mailed code and its send button: `reauth/send_code` mails a code to the
 * account's own address (the same resend interval as every e-mail code).
 */
function emailCodeField(prefix: string): {
  el: HTMLElement;
  code: HTMLInputElement;
} {
  const code = sixDigitInput(`${prefix}_email_code`);
  const send = h(
    'button',
    { type: 'button', class: 'secondary', 'data-action': 'send-reauth-code' },
    t('login.sendCode'),
  );
  const status = h('small', { class: 'hint', role: 'status' });
  send.addEventListener(
    'click',
    () =>
      void busy(send, async () => {
        try {
          const sent = await data<{ resend_after: number }>(
            'POST',
            'account/reauth/send_code',
          );
          status.textContent = t('login.codeSent');
          status.className = 'hint';
          // After busy() gives the button back, the countdown takes it.
          setTimeout(() => cooldown(send, sent.resend_after || 60), 0);
        } catch (err) {
          status.textContent = messageOf(err);
          status.className = 'hint error';
        }
      }),
  );
  const el = h(
    'div',
    { class: 'reauth-email' },
    h(
      'div',
      { class: 'inline' },
      field(t('account.reauthEmailCode'), code),
      send,
    ),
    status,
  );
  el.hidden = true;
  return { el, code };
}

/** The password input is named `<prefix>_password` (or `password`), the code's `<prefix>_otp`. */
export function reauthFields(
  prefix: string,
  passwordName = `${prefix}_password`,
): ReauthFields {
  const password = input(passwordName, {
    type: 'password',
    autocomplete: 'current-password',
  });
  const otp = input(`${prefix}_otp`, {
    autocomplete: 'one-time-code',
    placeholder: t('account.codeOrRecovery'),
  });
  const otpField = field(t('label.otp'), otp);
  otpField.hidden = true;
  const passwordField = field(t('label.current_password'), password);
  const mailed = emailCodeField(prefix);
  const el = h('div', { class: 'reauth' }, passwordField, mailed.el, otpField);
  const show = () =>
    void authenticatorOn().then(
      (on) => {
        otpField.hidden = !on;
      },
      () => undefined,
    );
  show();
  void hasPassword().then((set) => {
    if (set) return;
    proofWithoutPassword();
    password.hidden = true;
    passwordField.querySelector('label')!.hidden = true;
    const hint = h(
      'small',
      { class: 'hint reauth-upstream' },
      t('account.noPasswordHint'),
    );
    passwordField.append(hint);
    // With an address, a mailed code proves it too; else the proof is the recent sign-in with a linked provider (see 第三方账号).
    void accountEmail().then((email) => {
      if (email === '') return;
      hint.textContent = t('account.noPasswordEmailHint', { email });
      mailed.el.hidden = false;
      // The hint and the code field need the width: one under the other.
      el.classList.add('reauth-mailed');
    });
  });
  document.addEventListener('authenticator-changed', show);
  return {
    el,
    proof: () => ({
      ...(!password.hidden && { current_password: password.value }),
      ...(!mailed.el.hidden &&
        mailed.code.value.trim() !== '' && {
          email_code: mailed.code.value.trim(),
        }),
      ...(!otpField.hidden && { otp: otp.value.trim() }),
    }),
    check: () =>
      showFieldErrors([
        [
          password,
          !password.hidden && password.value === ''
            ? t('account.currentPasswordRequired')
            : undefined,
        ],
        [otp, otpField.hidden ? undefined : required(otp, t('label.otp'))],
      ]),
    reset() {
      password.value = '';
      mailed.code.value = '';
      otp.value = '';
    },
  };
}
