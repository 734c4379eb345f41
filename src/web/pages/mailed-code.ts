/** E-mail codes on the sign-in and account pages: the send button and the field beside it. */
import { data } from '../api.js';
import { cooldown, field, h, type notice, sixDigitInput } from '../dom.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';
import { CaptchaBox, withCaptcha } from '../captcha.js';

/** Sends an e-mail code for `purpose`, starting the resend countdown on success. */
export async function sendCode(
  email: string,
  purpose: string,
  button: HTMLButtonElement,
  msg: ReturnType<typeof notice>,
  box?: CaptchaBox,
): Promise<void> {
  button.disabled = true;
  try {
    const sent = await withCaptcha(box, (captcha) =>
      data<{ resend_after: number }>('POST', 'send_code', {
        email: email.trim(),
        purpose,
        captcha,
      }),
    );
    msg.ok(t('login.codeSent'));
    cooldown(button, sent.resend_after || 60);
  } catch (err) {
    button.disabled = false;
    msg.error(messageOf(err));
  }
}

/**
 * A six-digit code field beside the button that mails the code for `purpose` to `address()`;
 * `box` is the CAPTCHA that sending asks for whenever one is on, for the form to place.
 */
export function mailedCodeRow(
  name: string,
  purpose: string,
  address: () => string,
  msg: ReturnType<typeof notice>,
): { code: HTMLInputElement; codeRow: HTMLElement; box: CaptchaBox } {
  const code = sixDigitInput(name);
  const send = h(
    'button',
    { type: 'button', class: 'secondary' },
    t('login.sendCode'),
  );
  const box = new CaptchaBox();
  send.addEventListener(
    'click',
    () => void sendCode(address(), purpose, send, msg, box),
  );
  const codeRow = h(
    'div',
    { class: 'inline' },
    field(t('label.code'), code),
    send,
  );
  return { code, codeRow, box };
}
