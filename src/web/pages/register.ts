import { call, data, type TokenEnvelope } from '../api.js';
import { field, form, h, input, notice } from '../dom.js';
import { messageOf, render } from '../layout.js';
import { finishSignIn, sendCode, withNext } from './login.js';

export function registerPage(): void {
  const msg = notice();
  const username = input('username', { autocomplete: 'username', required: true, maxlength: '32' });
  const displayName = input('display_name', { autocomplete: 'nickname', maxlength: '64' });
  const email = input('email', { type: 'email', autocomplete: 'email', required: true });
  const code = input('email_code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字' });
  const password = input('password', { type: 'password', autocomplete: 'new-password', required: true });
  const send = h('button', { type: 'button', class: 'secondary' }, '发送验证码');
  send.addEventListener('click', () => void sendCode(email.value, 'register', send, msg));
  const submit = h('button', { type: 'submit', class: 'primary' }, '注册');
  const f = form([
    field('用户名', username, '3–32 位字母、数字或下划线'),
    field('昵称（可选）', displayName),
    field('邮箱', email),
    h('div', { class: 'inline' }, field('邮箱验证码', code), send),
    field('密码', password, '8–128 个字符'),
    submit,
  ], submit, async () => {
    msg.hide();
    const body: Record<string, string> = { username: username.value.trim(), password: password.value, email: email.value.trim() };
    if (displayName.value.trim()) body.display_name = displayName.value.trim();
    if (code.value.trim()) body.email_code = code.value.trim();
    await finishSignIn(await call<TokenEnvelope>('POST', 'register', body, false));
  }, (e) => msg.error(messageOf(e)));
  render('注册账号', [msg.el, f, h('p', { class: 'links' }, h('a', { href: withNext('/login') }, '已有账号？登录'))]);
}

export function resetPasswordPage(): void {
  const msg = notice();
  const email = input('email', { type: 'email', autocomplete: 'email', required: true });
  const code = input('code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字' });
  const password = input('new_password', { type: 'password', autocomplete: 'new-password', required: true });
  const send = h('button', { type: 'button', class: 'secondary' }, '发送验证码');
  send.addEventListener('click', () => void sendCode(email.value, 'reset_password', send, msg));
  const submit = h('button', { type: 'submit', class: 'primary' }, '重置密码');
  const f = form([
    field('邮箱', email),
    h('div', { class: 'inline' }, field('验证码', code), send),
    field('新密码', password, '8–128 个字符；重置后其他设备上的登录都会失效'),
    submit,
  ], submit, async () => {
    msg.hide();
    await data('POST', 'reset_password', { email: email.value.trim(), code: code.value.trim(), new_password: password.value });
    f.hidden = true;
    msg.ok('密码已重置，请使用新密码登录');
  }, (e) => msg.error(messageOf(e)));
  render('重置密码', [msg.el, f, h('p', { class: 'links' }, h('a', { href: withNext('/login') }, '返回登录'))]);
}
