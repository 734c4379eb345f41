/** The sign-in steps added by second factors: the code step after a first factor, and passkeys. */
import { startAuthentication } from '@simplewebauthn/browser';
import { ApiError, call, data, type TokenEnvelope } from '../api.js';
import { busy, field, form, h, input, notice } from '../dom.js';
import { messageOf, render } from '../layout.js';
import { t } from '../i18n.js';
import { atIpAddress, passkeysUnavailable } from '../passkey-host.js';

/** The answer of login / login_by_code when the password (or e-mail code) was right and a code is needed. */
const SECOND_FACTOR_REQUIRED = '需要两步验证';

/**
 * Runs a sign-in; when the account asks for its second factor, shows the code step and sends
 * the same request again with `otp` until it passes. Resolves with the token either way.
 */
export async function withSecondStep(
  send: (otp?: string) => Promise<TokenEnvelope>,
): Promise<TokenEnvelope> {
  try {
    return await send();
  } catch (err) {
    if (
      !(
        err instanceof ApiError &&
        err.status === 401 &&
        err.msg === SECOND_FACTOR_REQUIRED
      )
    )
      throw err;
  }
  return new Promise((resolve) => {
    const msg = notice();
    const otp = input('otp', {
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      required: true,
      maxlength: '32',
      placeholder: t('second.placeholder'),
    });
    const submit = h(
      'button',
      { type: 'submit', class: 'primary' },
      t('second.verify'),
    );
    const step = form(
      [field(t('label.code'), otp, t('second.hint')), submit],
      submit,
      async () => {
        msg.hide();
        resolve(await send(otp.value.trim()));
      },
      (e) => msg.error(messageOf(e)),
    );
    render(t('second.title'), [
      h('p', { class: 'muted small' }, t('second.intro')),
      msg.el,
      step,
      h('p', { class: 'links' }, backToFirstStep()),
    ]);
    otp.focus();
  });
}

/**
 * The way out of the code step: the sign-in page loaded afresh, so nothing typed for the first
 * step stays on screen; `next` is kept so the sign-in still ends where it was going.
 */
function backToFirstStep(): HTMLElement {
  const next = new URLSearchParams(location.search).get('next');
  const href = next ? `/login?next=${encodeURIComponent(next)}` : '/login';
  return h('a', { href, id: 'second-step-back' }, t('second.back'));
}

/** Sign-in with a passkey of this site, without a user name (discoverable credentials). */
export function passkeySignIn(
  done: (envelope: TokenEnvelope) => Promise<void>,
  msg: ReturnType<typeof notice>,
): HTMLElement {
  if (atIpAddress())
    return h('div', { class: 'passkey-login' }, passkeysUnavailable());
  const button = h(
    'button',
    { type: 'button', class: 'secondary', id: 'passkey-login' },
    t('passkey.signIn'),
  );
  button.addEventListener(
    'click',
    () =>
      void busy(button, async () => {
        msg.hide();
        try {
          const optionsJSON = await data<
            Parameters<typeof startAuthentication>[0]['optionsJSON']
          >('POST', 'passkey/options');
          const response = await startAuthentication({ optionsJSON });
          await done(
            await call<TokenEnvelope>(
              'POST',
              'passkey/login',
              { response },
              false,
            ),
          );
        } catch (err) {
          msg.error(
            err instanceof ApiError ? messageOf(err) : t('passkey.failed'),
          );
        }
      }),
  );
  return h('div', { class: 'passkey-login' }, button);
}
