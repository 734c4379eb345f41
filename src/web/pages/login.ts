import {
  ApiError,
  call,
  clearToken,
  currentUser,
  getToken,
  safeNext,
  setToken,
  type TokenEnvelope,
} from '../api.js';
import { field, form, h, input, notice } from '../dom.js';
import { messageOf, render } from '../layout.js';
import { endBrowserSession, startBrowserSession } from '../oidc.js';
import { mailedCodeRow } from './mailed-code.js';
import { passkeySignIn, withSecondStep } from './second-step.js';
import { upstreamButtons } from '../upstream.js';
import { t } from '../i18n.js';
import { CAPTCHA_NEEDED, CaptchaBox, withCaptcha } from '../captcha.js';

const nextParam = () => new URLSearchParams(location.search).get('next');

/** Keeps the page the user came from (e.g. an /authorize link) across the sign-in pages. */
export function withNext(path: string): string {
  const next = nextParam();
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}

/** Signed in: the token is kept for the pages and, as a cookie, for the authorization endpoint. */
export async function finishSignIn(
  envelope: TokenEnvelope,
  next = nextParam(),
): Promise<void> {
  setToken(envelope.access_token);
  await startBrowserSession(envelope.access_token);
  location.replace(safeNext(next));
}

type SignedIn = (envelope: TokenEnvelope) => Promise<void>;

/** The password sign-in form; `done` gets the token (by default: signed in, on to `next`). */
export function passwordForm(
  msg: ReturnType<typeof notice>,
  done: SignedIn = (e) => finishSignIn(e),
  prefill?: string,
): HTMLFormElement {
  // An application may say who is expected (OpenID Connect login_hint): only a pre-fill.
  const hint = (
    new URLSearchParams(location.search).get('login_hint') ?? ''
  ).slice(0, 254);
  const username = input('username', {
    autocomplete: 'username',
    required: true,
    placeholder: t('login.usernameOrEmail'),
    value: prefill ?? (hint || undefined),
  });
  const password = input('password', {
    type: 'password',
    autocomplete: 'current-password',
    required: true,
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('login.submit'),
  );
  // Asked for only after failed tries (docs/abuse.md): shown once the server says so.
  const box = new CaptchaBox();
  let needed = false;
  return form(
    [
      field(t('login.usernameOrEmail'), username),
      field(t('label.password'), password),
      box.el,
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      const body = {
        username: username.value.trim(),
        password: password.value,
      };
      const login = (otp?: string) =>
        withCaptcha(needed ? box : undefined, (captcha) =>
          call<TokenEnvelope>(
            'POST',
            'login',
            { ...body, otp, captcha },
            false,
          ),
        );
      await done(await withSecondStep(login));
    },
    (e) => {
      if (e instanceof ApiError && e.msg === CAPTCHA_NEEDED && box.enabled) {
        needed = true;
        void box.start();
      }
      msg.error(messageOf(e));
    },
  );
}

/** The e-mail code sign-in form; `done` as for passwordForm. */
export function codeForm(
  msg: ReturnType<typeof notice>,
  done: SignedIn = (e) => finishSignIn(e),
  prefill?: string,
): HTMLFormElement {
  const email = input('email', {
    type: 'email',
    autocomplete: 'email',
    required: true,
    value: prefill,
  });
  const { code, codeRow, box } = mailedCodeRow(
    'code',
    'login',
    () => email.value,
    msg,
  );
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('login.submit'),
  );
  // Sending a code needs a CAPTCHA whenever one is on; solve it once the form is in use.
  email.addEventListener('focus', () => void box.start(), { once: true });
  return form(
    [field(t('label.email'), email), box.el, codeRow, submit],
    submit,
    async () => {
      msg.hide();
      const body = { email: email.value.trim(), code: code.value.trim() };
      await done(
        await withSecondStep((otp) =>
          call<TokenEnvelope>('POST', 'login_by_code', { ...body, otp }, false),
        ),
      );
    },
    (e) => msg.error(messageOf(e)),
  );
}

/** The two first factors, password and e-mail code, on tabs; `done` as for passwordForm. */
export function signInForms(
  msg: ReturnType<typeof notice>,
  done?: SignedIn,
  prefill?: string,
): [HTMLElement, HTMLFormElement, HTMLFormElement] {
  const byPassword = passwordForm(msg, done, prefill);
  const byCode = codeForm(msg, done, prefill);
  byCode.hidden = true;
  const tabPassword = h(
    'button',
    { type: 'button', class: 'tab active', 'aria-pressed': 'true' },
    t('login.byPassword'),
  );
  const tabCode = h(
    'button',
    { type: 'button', class: 'tab', 'aria-pressed': 'false' },
    t('login.byCode'),
  );
  const select = (code: boolean) => {
    byCode.hidden = !code;
    byPassword.hidden = code;
    tabCode.classList.toggle('active', code);
    tabPassword.classList.toggle('active', !code);
    tabCode.setAttribute('aria-pressed', String(code));
    tabPassword.setAttribute('aria-pressed', String(!code));
    msg.hide();
  };
  tabPassword.addEventListener('click', () => select(false));
  tabCode.addEventListener('click', () => select(true));
  return [
    h('div', { class: 'tabs' }, tabPassword, tabCode),
    byPassword,
    byCode,
  ];
}

export async function loginPage(): Promise<void> {
  // "Switch account": end the current session before showing the form.
  if (new URLSearchParams(location.search).get('switch') && getToken()) {
    await call('POST', 'logout').catch(() => undefined);
    clearToken();
    await endBrowserSession();
  }
  // Already signed in (and the token still works): go straight on.
  if (await currentUser().catch(() => null)) {
    await startBrowserSession();
    location.replace(safeNext(nextParam()));
    return;
  }
  const msg = notice();
  const [tabs, byPassword, byCode] = signInForms(msg);
  render(t('login.title'), [
    tabs,
    msg.el,
    byPassword,
    byCode,
    passkeySignIn((e) => finishSignIn(e), msg),
    upstreamButtons(nextParam()),
    h(
      'p',
      { class: 'links' },
      h('a', { href: withNext('/register') }, t('login.toRegister')),
      h('a', { href: withNext('/reset_password') }, t('login.forgot')),
    ),
  ]);
}
