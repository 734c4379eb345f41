/**
 * The owner's proof that /account sends with every change to how the account is signed in
 * to (docs/api.md §10): the current password, and the authenticator code when it is on.
 */
import { data } from './api.js';
import { field, h, input } from './dom.js';
import { required, showFieldErrors } from './field-errors.js';
import type { AccountLinksData, SecondFactorStatus } from './contracts.js';
import { t } from './i18n.js';

let totpOn: Promise<boolean> | undefined;
let passwordSet: Promise<boolean> | undefined;

/**
 * Whether the account has a password: one made by signing in with another account has none,
 * and proves itself by signing in again with a linked provider instead (docs/api.md §14.4).
 */
function hasPassword(): Promise<boolean> {
  passwordSet ??= data<AccountLinksData>('GET', 'account/upstream').then((a) => a.has_password, () => true);
  return passwordSet;
}

/** Whether the authenticator is on: asked once, then told by the second-factor sections. */
function authenticatorOn(): Promise<boolean> {
  totpOn ??= data<SecondFactorStatus>('GET', 'account/second_factor').then((s) => s.totp);
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
  proof(): { current_password?: string; otp?: string };
  /** Marks an empty password (or code, when asked for) under its field; true when both are filled. */
  check(): boolean;
  reset(): void;
}

/** The password input is named `<prefix>_password` (or `password`), the code's `<prefix>_otp`. */
export function reauthFields(prefix: string, passwordName = `${prefix}_password`): ReauthFields {
  const password = input(passwordName, { type: 'password', autocomplete: 'current-password' });
  const otp = input(`${prefix}_otp`, { autocomplete: 'one-time-code', placeholder: t('account.codeOrRecovery') });
  const otpField = field(t('label.otp'), otp);
  otpField.hidden = true;
  const passwordField = field(t('label.current_password'), password);
  const show = () => void authenticatorOn().then((on) => { otpField.hidden = !on; }, () => undefined);
  show();
  void hasPassword().then((set) => {
    if (set) return;
    // Nothing to type: the proof is the recent sign-in with a linked provider (see 第三方账号).
    password.hidden = true;
    passwordField.querySelector('label')!.hidden = true;
    passwordField.append(h('small', { class: 'hint reauth-upstream' }, t('account.noPasswordHint')));
  });
  document.addEventListener('authenticator-changed', show);
  return {
    el: h('div', { class: 'reauth' }, passwordField, otpField),
    proof: () => ({ ...(!password.hidden && { current_password: password.value }), ...(!otpField.hidden && { otp: otp.value.trim() }) }),
    check: () => showFieldErrors([
      [password, !password.hidden && password.value === '' ? t('account.currentPasswordRequired') : undefined],
      [otp, otpField.hidden ? undefined : required(otp, t('label.otp'))],
    ]),
    reset() {
      password.value = '';
      otp.value = '';
    },
  };
}
