import { ApiError, call, data, type TokenEnvelope } from '../api.js';
import { field, form, h, input, notice } from '../dom.js';
import { required, setFieldError, showFieldErrors } from '../field-errors.js';
import { badParamField } from '../field-labels.js';
import { messageOf, render } from '../layout.js';
import { finishSignIn, sendCode, withNext } from './login.js';
import { CaptchaBox, withCaptcha } from '../captcha.js';

type Control = HTMLInputElement;

/** The server's answers that concern one field of the sign-up form (docs/api.md §2). */
const FIELD_OF_MSG = new Map<string, string>(Object.entries({
  用户名格式不正确: 'username',
  用户名已被占用: 'username',
  '密码长度需为 8 到 128 个字符': 'password',
  邮箱格式不正确: 'email',
  邮箱已被注册: 'email',
  验证码错误或已过期: 'email_code',
  邀请码无效或已用完: 'invite_code',
  该邮箱域名不允许注册: 'email',
}));

/** The same rules as the server (docs/api.md §2), checked first so every mistake shows at once. */
function signUpChecks(f: Record<'username' | 'displayName' | 'email' | 'code' | 'password', Control>, codeRequired: boolean): Array<[Control, string | undefined]> {
  const username = f.username.value.trim();
  const email = f.email.value.trim();
  const code = f.code.value.trim();
  const passwordLength = [...f.password.value].length;
  return [
    [f.username, required(f.username, '用户名') ?? (/^[A-Za-z0-9_]{3,32}$/.test(username) ? undefined : '用户名需为 3–32 位字母、数字或下划线')],
    [f.displayName, [...f.displayName.value.trim()].length > 64 ? '昵称最多 64 个字符' : undefined],
    [f.email, required(f.email, '邮箱') ?? (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? undefined : '邮箱格式不正确')],
    [f.code, codeRequired ? required(f.code, '邮箱验证码') ?? sixDigits(code) : code ? sixDigits(code) : undefined],
    [f.password, required(f.password, '密码') ?? (passwordLength < 8 || passwordLength > 128 ? '密码长度需为 8 到 128 个字符' : undefined)],
  ];
}

const sixDigits = (code: string) => (/^\d{6}$/.test(code) ? undefined : '验证码为 6 位数字');

export function registerPage(): void {
  const msg = notice();
  // REGISTRATION (docs/abuse.md): closed says so; invite asks for the code.
  const registration = document.body.dataset.registration ?? 'open';
  if (registration === 'closed') {
    render('注册账号', [h('p', { class: 'notice error' }, '当前不开放注册'), h('p', { class: 'links' }, h('a', { href: withNext('/login') }, '已有账号？登录'))]);
    return;
  }
  const inviteRequired = registration === 'invite';
  const invite = input('invite_code', { autocomplete: 'off', required: true, id: 'f-invite_code' });
  const box = new CaptchaBox();
  // The page route says whether REGISTER_REQUIRES_EMAIL_CODE is on.
  const codeRequired = document.body.dataset.emailCode === 'required';
  const username = input('username', { autocomplete: 'username', required: true, maxlength: '32' });
  const displayName = input('display_name', { autocomplete: 'nickname', maxlength: '64' });
  const email = input('email', { type: 'email', autocomplete: 'email', required: true });
  const code = input('email_code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字', required: codeRequired, id: 'f-email_code' });
  const password = input('password', { type: 'password', autocomplete: 'new-password', required: true });
  const controls = { username, displayName, email, code, password };
  const send = h('button', { type: 'button', class: 'secondary' }, '发送验证码');
  send.addEventListener('click', () => void sendCode(email.value, 'register', send, msg, box));
  const submit = h('button', { type: 'submit', class: 'primary' }, '注册');
  const optional = (label: string) => h('span', {}, label, h('span', { class: 'optional' }, '（选填）'));
  const codeHint = codeRequired ? '注册需要验证邮箱' : '填写后邮箱即完成验证；也可以注册后再验证';
  const byName: Record<string, Control> = { username, display_name: displayName, email, email_code: code, password, invite_code: invite };
  const report = (e: unknown) => {
    // A refusal about one field goes next to it; anything else above the form.
    const text = e instanceof ApiError ? e.msg : '';
    const name = FIELD_OF_MSG.get(text) ?? badParamField(text);
    const control = name !== undefined && Object.prototype.hasOwnProperty.call(byName, name) ? byName[name] : undefined;
    if (control) setFieldError(control, messageOf(e));
    else msg.error(messageOf(e));
  };
  const f = form([
    ...(inviteRequired ? [field('邀请码', invite, '本站仅限受邀注册')] : []),
    field('用户名', username, '3–32 位字母、数字或下划线'),
    field(optional('昵称'), displayName),
    field('邮箱', email),
    // The button sits beside the input itself, with the hint and any error under both.
    h('div', { class: 'field' }, h('label', { for: code.id }, codeRequired ? '邮箱验证码' : optional('邮箱验证码')),
      h('div', { class: 'inline' }, code, send), h('small', { class: 'hint' }, codeHint)),
    field('密码', password, '8–128 个字符'),
    box.el,
    submit,
  ], submit, async () => {
    msg.hide();
    const checks = signUpChecks(controls, codeRequired);
    if (inviteRequired) checks.unshift([invite, required(invite, '邀请码')]);
    if (!showFieldErrors(checks)) return;
    const body: Record<string, string> = { username: username.value.trim(), password: password.value, email: email.value.trim() };
    if (displayName.value.trim()) body.display_name = displayName.value.trim();
    if (code.value.trim()) body.email_code = code.value.trim();
    if (inviteRequired) body.invite_code = invite.value.trim();
    await finishSignIn(await withCaptcha(box, (captcha) => call<TokenEnvelope>('POST', 'register', { ...body, captcha }, false)));
  }, report);
  render('注册账号', [msg.el, f, h('p', { class: 'links' }, h('a', { href: withNext('/login') }, '已有账号？登录'))]);
  // The proof of work runs while the form is filled in.
  void box.start();
}

export function resetPasswordPage(): void {
  const msg = notice();
  const email = input('email', { type: 'email', autocomplete: 'email', required: true });
  const code = input('code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字' });
  const password = input('new_password', { type: 'password', autocomplete: 'new-password', required: true });
  const send = h('button', { type: 'button', class: 'secondary' }, '发送验证码');
  const box = new CaptchaBox();
  send.addEventListener('click', () => void sendCode(email.value, 'reset_password', send, msg, box));
  const submit = h('button', { type: 'submit', class: 'primary' }, '重置密码');
  const f = form([
    field('邮箱', email),
    box.el,
    h('div', { class: 'inline' }, field('验证码', code), send),
    field('新密码', password, '8–128 个字符；重置后其他设备上的登录都会失效'),
    submit,
  ], submit, async () => {
    msg.hide();
    if (!showFieldErrors([[email, required(email, '邮箱')], [code, required(code, '验证码')], [password, required(password, '新密码')]])) return;
    await data('POST', 'reset_password', { email: email.value.trim(), code: code.value.trim(), new_password: password.value });
    f.hidden = true;
    msg.ok('密码已重置，请使用新密码登录');
  }, (e) => msg.error(messageOf(e)));
  render('重置密码', [msg.el, f, h('p', { class: 'links' }, h('a', { href: withNext('/login') }, '返回登录'))]);
  void box.start();
}
