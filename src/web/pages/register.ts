import { ApiError, call, type TokenEnvelope } from '../api.js';
import { field, form, h, input, notice, sixDigitInput } from '../dom.js';
import { required, setFieldError, showFieldErrors } from '../field-errors.js';
import { badParamField } from '../field-labels.js';
import { messageOf, render } from '../layout.js';
import { finishSignIn, withNext } from './login.js';
import { sendCode } from './mailed-code.js';
import { t } from '../i18n.js';
import { CaptchaBox, withCaptcha } from '../captcha.js';
export { resetPasswordPage } from './reset-password.js';

type Control = HTMLInputElement;

/** The server's answers that concern one field of the sign-up form (docs/api.md §2). */
const FIELD_OF_MSG = new Map<string, string>(
  Object.entries({
    用户名格式不正确: 'username',
    用户名已被占用: 'username',
    '密码长度需为 8 到 128 个字符': 'password',
    邮箱格式不正确: 'email',
    邮箱已被注册: 'email',
    验证码错误或已过期: 'email_code',
    邀请码无效或已用完: 'invite_code',
    该邮箱域名不允许注册: 'email',
  }),
);

/** The same rules as the server (docs/api.md §2), checked first so every mistake shows at once. */
function signUpChecks(
  f: Record<
    'username' | 'displayName' | 'email' | 'code' | 'password',
    Control
  >,
  codeRequired: boolean,
): Array<[Control, string | undefined]> {
  const username = f.username.value.trim();
  const email = f.email.value.trim();
  const code = f.code.value.trim();
  const passwordLength = [...f.password.value].length;
  return [
    [
      f.username,
      required(f.username, t('label.username')) ??
        (/^[A-Za-z0-9_]{3,32}$/.test(username)
          ? undefined
          : t('register.usernameRule')),
    ],
    [
      f.displayName,
      [...f.displayName.value.trim()].length > 64
        ? t('register.displayNameMax')
        : undefined,
    ],
    [
      f.email,
      required(f.email, t('label.email')) ??
        (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)
          ? undefined
          : t('register.emailFormat')),
    ],
    [
      f.code,
      codeRequired
        ? (required(f.code, t('label.email_code')) ?? sixDigits(code))
        : code
          ? sixDigits(code)
          : undefined,
    ],
    [
      f.password,
      required(f.password, t('label.password')) ??
        (passwordLength < 8 || passwordLength > 128
          ? t('register.passwordLength')
          : undefined),
    ],
  ];
}

const sixDigits = (code: string) =>
  /^\d{6}$/.test(code) ? undefined : t('register.sixDigits');

export function registerPage(): void {
  const msg = notice();
  // REGISTRATION (docs/abuse.md): closed says so; invite asks for the code.
  const registration = document.body.dataset.registration ?? 'open';
  if (registration === 'closed') {
    render(t('register.title'), [
      h('p', { class: 'notice error' }, t('register.closed')),
      h(
        'p',
        { class: 'links' },
        h('a', { href: withNext('/login') }, t('register.toLogin')),
      ),
    ]);
    return;
  }
  const inviteRequired = registration === 'invite';
  const invite = input('invite_code', {
    autocomplete: 'off',
    required: true,
    id: 'f-invite_code',
  });
  const box = new CaptchaBox();
  // The page route says whether REGISTER_REQUIRES_EMAIL_CODE is on.
  const codeRequired = document.body.dataset.emailCode === 'required';
  const username = input('username', {
    autocomplete: 'username',
    required: true,
    maxlength: '32',
  });
  const displayName = input('display_name', {
    autocomplete: 'nickname',
    maxlength: '64',
  });
  const email = input('email', {
    type: 'email',
    autocomplete: 'email',
    required: true,
  });
  const code = sixDigitInput('email_code', {
    required: codeRequired,
    id: 'f-email_code',
  });
  const password = input('password', {
    type: 'password',
    autocomplete: 'new-password',
    required: true,
  });
  const controls = { username, displayName, email, code, password };
  const send = h(
    'button',
    { type: 'button', class: 'secondary' },
    t('login.sendCode'),
  );
  send.addEventListener(
    'click',
    () => void sendCode(email.value, 'register', send, msg, box),
  );
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('register.submit'),
  );
  const optional = (label: string) =>
    h('span', {}, label, h('span', { class: 'optional' }, t('field.optional')));
  const codeHint = codeRequired
    ? t('register.codeRequiredHint')
    : t('register.codeOptionalHint');
  const byName: Record<string, Control> = {
    username,
    display_name: displayName,
    email,
    email_code: code,
    password,
    invite_code: invite,
  };
  const report = (e: unknown) => {
    // A refusal about one field goes next to it; anything else above the form.
    const text = e instanceof ApiError ? e.msg : '';
    const name = FIELD_OF_MSG.get(text) ?? badParamField(text);
    const control =
      name !== undefined && Object.hasOwn(byName, name)
        ? byName[name]
        : undefined;
    if (control) setFieldError(control, messageOf(e));
    else msg.error(messageOf(e));
  };
  const f = form(
    [
      ...(inviteRequired
        ? [field(t('register.inviteCode'), invite, t('register.inviteHint'))]
        : []),
      field(t('label.username'), username, t('register.usernameHint')),
      field(optional(t('label.display_name')), displayName),
      field(t('label.email'), email),
      // The button sits beside the input itself, with the hint and any error under both.
      h(
        'div',
        { class: 'field' },
        h(
          'label',
          { for: code.id },
          codeRequired
            ? t('label.email_code')
            : optional(t('label.email_code')),
        ),
        h('div', { class: 'inline' }, code, send),
        h('small', { class: 'hint' }, codeHint),
      ),
      field(t('label.password'), password, t('register.passwordHint')),
      box.el,
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      const checks = signUpChecks(controls, codeRequired);
      if (inviteRequired)
        checks.unshift([invite, required(invite, t('register.inviteCode'))]);
      if (!showFieldErrors(checks)) return;
      const body: Record<string, string> = {
        username: username.value.trim(),
        password: password.value,
        email: email.value.trim(),
      };
      if (displayName.value.trim())
        body.display_name = displayName.value.trim();
      if (code.value.trim()) body.email_code = code.value.trim();
      if (inviteRequired) body.invite_code = invite.value.trim();
      await finishSignIn(
        await withCaptcha(box, (captcha) =>
          call<TokenEnvelope>('POST', 'register', { ...body, captcha }, false),
        ),
      );
    },
    report,
  );
  render(t('register.title'), [
    msg.el,
    f,
    h(
      'p',
      { class: 'links' },
      h('a', { href: withNext('/login') }, t('register.toLogin')),
    ),
  ]);
  // The proof of work runs while the form is filled in.
  void box.start();
}
