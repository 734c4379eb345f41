/** /account sections for second factors: the authenticator app with its recovery codes, and passkeys. */
import { data } from '../api.js';
import {
  copyButton,
  downloadButton,
  field,
  form,
  h,
  notice,
  sixDigitInput,
} from '../dom.js';
import { messageOf } from '../layout.js';
import { authenticatorChanged, reauthFields } from '../reauth.js';
import type {
  RecoveryCodesData,
  SecondFactorStatus,
  TotpSetupData,
} from '../contracts.js';
import { t } from '../i18n.js';
import { passkeys } from './account-passkeys.js';

/** Recovery codes, shown once, right under the section heading. */
function showRecoveryCodes(box: HTMLElement, codes: string[]): void {
  const list = h(
    'div',
    { class: 'recovery' },
    h('p', { class: 'notice success' }, t('account.saveRecoveryCodes')),
    h(
      'ul',
      { id: 'recovery-codes', class: 'codes' },
      ...codes.map((c) => h('li', {}, h('code', {}, c))),
    ),
    h(
      'div',
      { class: 'actions' },
      copyButton(codes.join('\n'), 'recovery-copy'),
      downloadButton(
        `${codes.join('\n')}\n`,
        'recovery-codes.txt',
        'recovery-download',
      ),
    ),
  );
  const heading = box.querySelector('h2');
  if (heading) heading.after(list);
  else box.prepend(list);
}

function totpOff(
  box: HTMLElement,
  refresh: () => Promise<void>,
): HTMLElement[] {
  const msg = notice();
  const proof = reauthFields('totp_setup');
  const start = h(
    'button',
    { type: 'submit', class: 'primary', id: 'totp-setup' },
    t('account.totpTurnOn'),
  );
  const step = h('div', {});
  // The password is asked before the secret is shown; the code then confirms it in this session.
  const startForm = form(
    [h('div', { class: 'inline' }, proof.el, start)],
    start,
    async () => {
      msg.hide();
      try {
        const setup = await data<TotpSetupData>(
          'POST',
          'account/totp/setup',
          proof.proof(),
        );
        startForm.hidden = true;
        const code = sixDigitInput('totp_code');
        const confirm = h(
          'button',
          { type: 'submit', class: 'primary', id: 'totp-enable' },
          t('account.totpConfirm'),
        );
        step.replaceChildren(
          h('p', { class: 'muted small' }, t('account.totpScan')),
          h('img', {
            src: setup.qr,
            alt: t('account.totpQr'),
            class: 'qr',
            width: '220',
            height: '220',
          }),
          h(
            'p',
            {},
            t('account.totpKey'),
            h('code', { id: 'totp-secret' }, setup.secret),
          ),
          form(
            [field(t('account.totpAppCode'), code), confirm],
            confirm,
            async () => {
              msg.hide();
              const { recovery_codes } = await data<RecoveryCodesData>(
                'POST',
                'account/totp/enable',
                { code: code.value.trim() },
              );
              await refresh();
              showRecoveryCodes(box, recovery_codes);
            },
            (e) => msg.error(messageOf(e)),
          ),
        );
      } catch (err) {
        msg.error(messageOf(err));
      }
    },
    (e) => msg.error(messageOf(e)),
  );
  return [
    h('p', { class: 'muted small' }, t('account.totpIntro')),
    msg.el,
    startForm,
    step,
  ];
}

function totpOn(
  status: SecondFactorStatus,
  box: HTMLElement,
  refresh: () => Promise<void>,
): HTMLElement[] {
  const msg = notice();
  // The same proof as every change: an account without a password may use a mailed code here too.
  const offProof = reauthFields('totp_off');
  const off = h(
    'button',
    { type: 'submit', class: 'danger', id: 'totp-disable' },
    t('account.totpTurnOff'),
  );
  const offForm = form(
    [offProof.el, off],
    off,
    async () => {
      msg.hide();
      await data('POST', 'account/totp/disable', offProof.proof());
      await refresh();
    },
    (e) => msg.error(messageOf(e)),
  );
  const regenProof = reauthFields('recovery_code');
  const regen = h(
    'button',
    { type: 'submit', class: 'secondary', id: 'recovery-regenerate' },
    t('account.newRecoveryCodes'),
  );
  const regenForm = form(
    [regenProof.el, regen],
    regen,
    async () => {
      msg.hide();
      const { recovery_codes } = await data<RecoveryCodesData>(
        'POST',
        'account/recovery_codes',
        regenProof.proof(),
      );
      await refresh();
      showRecoveryCodes(box, recovery_codes);
    },
    (e) => msg.error(messageOf(e)),
  );
  return [
    h(
      'p',
      {},
      h('span', { class: 'badge ok', id: 'totp-status' }, t('account.totpOn')),
      t('account.codesLeft', { n: status.recovery_codes_left }),
    ),
    msg.el,
    h('h3', {}, t('account.newCodesHeading')),
    regenForm,
    h('h3', {}, t('account.turnOff')),
    offForm,
  ];
}

/** The two sections, reloaded after every change. */
export function securitySections(): HTMLElement[] {
  const totpBox = h(
    'section',
    { id: 'two-factor' },
    h('h2', {}, t('second.title')),
  );
  const passkeyBox = h(
    'section',
    { id: 'passkeys' },
    h('h2', {}, t('account.passkeys')),
  );
  const refresh = async () => {
    const status = await data<SecondFactorStatus>(
      'GET',
      'account/second_factor',
    );
    authenticatorChanged(status.totp);
    totpBox.replaceChildren(
      h('h2', {}, t('second.title')),
      ...(status.totp
        ? totpOn(status, totpBox, refresh)
        : totpOff(totpBox, refresh)),
    );
    passkeyBox.replaceChildren(
      h('h2', {}, t('account.passkeys')),
      ...passkeys(status, refresh),
    );
  };
  void refresh().catch((err: unknown) =>
    totpBox.append(h('p', { class: 'notice error' }, messageOf(err))),
  );
  return [totpBox, passkeyBox];
}
