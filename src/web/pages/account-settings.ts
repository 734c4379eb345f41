/** The self-service sections of /account: name, password, e-mail, sessions, deletion. */
import { call, clearToken, data, setToken, type Me, type TokenEnvelope } from '../api.js';
import type { SecondFactorStatus, SessionList, SessionView } from '../contracts.js';
import { busy, cooldown, field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { reauthFields } from '../reauth.js';

type Notice = ReturnType<typeof notice>;
const section = (title: string, id: string, ...body: Array<Node | null>) =>
  h('section', { id }, h('h2', {}, title), ...body);

export function editName(me: Me): HTMLElement {
  const msg = notice();
  const name = input('display_name', { maxlength: '64', autocomplete: 'nickname' });
  name.value = me.display_name;
  const submit = h('button', { type: 'submit', class: 'secondary' }, '保存昵称');
  const f = form([h('div', { class: 'inline' }, field('昵称', name), submit)], submit, async () => {
    msg.hide();
    const user = await data<{ display_name: string }>('POST', 'account/profile', { display_name: name.value });
    name.value = user.display_name;
    const shown = document.getElementById('profile-display-name');
    if (shown) shown.textContent = user.display_name;
    msg.ok('昵称已保存');
  }, (e) => msg.error(messageOf(e)));
  return section('修改昵称', 'edit-name', msg.el, f);
}

export function changePassword(): HTMLElement {
  const msg = notice();
  const proof = reauthFields('current', 'current_password');
  const next = input('new_password', { type: 'password', autocomplete: 'new-password', placeholder: '8 到 128 个字符' });
  const endOthers = h('input', { type: 'checkbox', id: 'f-end_other_sessions', name: 'end_other_sessions', checked: true });
  const submit = h('button', { type: 'submit', class: 'primary' }, '修改密码');
  const f = form([
    proof.el, field('新密码', next),
    h('label', { class: 'check' }, endOthers, ' 同时退出其他所有设备上的登录'),
    submit,
  ], submit, async () => {
    msg.hide();
    const env = await call<TokenEnvelope>('POST', 'account/password', {
      ...proof.proof(), new_password: next.value, end_other_sessions: endOthers.checked,
    });
    // The answer carries a fresh token of this sign-in: the old one may have been cut off.
    setToken(env.access_token);
    proof.reset();
    next.value = '';
    msg.ok(endOthers.checked ? '密码已修改，其他设备已退出登录' : '密码已修改');
    document.dispatchEvent(new Event('sessions-changed'));
    await showRemainingPasskeys(left);
  }, (e) => msg.error(messageOf(e)));
  const left = h('div', { id: 'password-passkeys' });
  return section('修改密码', 'change-password', msg.el, left, f);
}

/** Passkeys sign in whatever the password is: after a change, the owner sees which ones are left. */
async function showRemainingPasskeys(box: HTMLElement): Promise<void> {
  const { passkeys } = await data<SecondFactorStatus>('GET', 'account/second_factor');
  box.replaceChildren(...(passkeys.length === 0 ? [] : [h('div', { class: 'notice warning' },
    h('p', {}, '以下通行密钥不受密码影响，仍可直接登录你的账号；不认识的请在“通行密钥”中删除：'),
    h('ul', {}, ...passkeys.map((p) => h('li', {}, h('strong', {}, p.name), ` 添加于 ${formatTime(p.created_at)}`))))]));
}

export function changeEmail(me: Me): HTMLElement {
  const msg = notice();
  const email = input('new_email', { type: 'email', autocomplete: 'email', placeholder: '新邮箱地址' });
  const proof = reauthFields('change_email');
  const code = input('change_email_code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字' });
  const send = h('button', { type: 'button', class: 'secondary', id: 'send-change-code' }, '发送验证码');
  send.addEventListener('click', () => void busy(send, async () => {
    msg.hide();
    try {
      const sent = await data<{ resend_after: number }>('POST', 'account/email/send_code', { email: email.value.trim(), ...proof.proof() });
      proof.reset();
      msg.ok('验证码已发送到新邮箱，请查收（10 分钟内有效）');
      setTimeout(() => cooldown(send, sent.resend_after || 60), 0);
    } catch (err) {
      msg.error(messageOf(err));
    }
  }));
  const submit = h('button', { type: 'submit', class: 'primary' }, '更换邮箱');
  const f = form([field('新邮箱', email), proof.el, h('div', { class: 'inline' }, field('验证码', code), send), submit], submit, async () => {
    msg.hide();
    const changed = await data<{ email: string }>('POST', 'account/email', { email: email.value.trim(), code: code.value.trim() });
    msg.ok(`邮箱已更换为 ${changed.email}，原邮箱已收到通知`);
    // Every place on the page that names the address shows the new one; it is verified by the code.
    for (const shown of document.querySelectorAll('.current-email')) shown.textContent = changed.email;
    document.getElementById('verify-email')?.remove();
    const status = document.getElementById('email-status');
    if (status) {
      status.textContent = '已验证';
      status.className = 'badge ok';
    }
    email.value = '';
    code.value = '';
  }, (e) => msg.error(messageOf(e)));
  return section('更换邮箱', 'change-email', h('p', { class: 'muted small' }, '当前邮箱：', h('span', { class: 'current-email', id: 'change-email-current' }, me.email),
    '。请先输入当前密码再发送验证码；验证码将发送到新邮箱，10 分钟内在本设备确认。'), msg.el, f);
}

/** A short description of a user agent: enough to tell a phone from a desktop. */
export function deviceOf(ua: string): string {
  if (!ua) return '未知设备';
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Windows/.test(ua) ? 'Windows'
    : /Mac OS X/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : '';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Chrome\//.test(ua) ? 'Chrome' : /Firefox\//.test(ua) ? 'Firefox'
    : /Safari\//.test(ua) ? 'Safari' : '';
  return [browser, os].filter(Boolean).join(' · ') || ua.slice(0, 40);
}

/**
 * Where a sign-in came from: device and address, or, for an OAuth refresh-token family, that
 * an application holds it (the server records no address for those).
 */
export function sessionOrigin(s: SessionView): string {
  if (s.kind === 'oauth') return s.ip || s.user_agent ? `OAuth 授权 · ${deviceOf(s.user_agent)} · ${s.ip}` : 'OAuth 授权（应用代你访问账号）';
  return `${deviceOf(s.user_agent)} · ${s.ip}`;
}

function sessionItem(s: SessionView, end: (s: SessionView, button: HTMLButtonElement) => void): HTMLElement {
  const button = h('button', { type: 'button', class: 'danger small-button', 'data-session': s.id }, '退出');
  button.addEventListener('click', () => end(s, button));
  return h('li', { class: 'session', 'data-session-id': s.id, 'data-kind': s.kind },
    h('div', { class: 'session-main' },
      h('strong', {}, s.app_name), ' ', s.current ? h('span', { class: 'badge ok' }, '当前设备') : null,
      s.kind === 'oauth' ? h('span', { class: 'badge' }, '第三方授权') : null,
      h('div', { class: 'muted small' }, sessionOrigin(s)),
      h('div', { class: 'muted small' }, `登录于 ${formatTime(s.created_at)}，最近使用 ${formatTime(s.last_used_at)}`)),
    s.current ? null : button);
}

export function sessions(): HTMLElement {
  const msg = notice();
  const list = h('ul', { class: 'plain sessions', id: 'sessions' });
  const endOthers = h('button', { type: 'button', class: 'danger', id: 'end-other-sessions' }, '退出其他所有设备');
  const load = async () => {
    try {
      const { sessions: all } = await data<SessionList>('GET', 'account/sessions');
      list.replaceChildren(...all.map((s) => sessionItem(s, endOne)));
      if (all.length === 0) list.append(h('li', { class: 'muted small' }, '没有其他登录'));
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  const endOne = (s: SessionView, button: HTMLButtonElement) => void busy(button, async () => {
    msg.hide();
    try {
      await data('POST', 'account/sessions/end', { id: s.id });
      msg.ok(`已退出 ${s.app_name} 的这次登录`);
      await load();
    } catch (err) {
      msg.error(messageOf(err));
    }
  });
  endOthers.addEventListener('click', () => void busy(endOthers, async () => {
    msg.hide();
    try {
      const { ended } = await data<{ ended: number }>('POST', 'account/sessions/end_others');
      msg.ok(`已退出其他 ${ended} 处登录`);
      await load();
    } catch (err) {
      msg.error(messageOf(err));
    }
  }));
  document.addEventListener('sessions-changed', () => void load());
  void load();
  return section('登录设备', 'session-list',
    h('p', { class: 'muted small' }, '以下是你的账号当前有效的登录（包括游戏令牌和第三方应用）。不认识的登录请立即退出并修改密码。'),
    msg.el, list, h('div', { class: 'actions' }, endOthers));
}

export function deleteAccount(): HTMLElement {
  const msg: Notice = notice();
  const proof = reauthFields('delete');
  const submit = h('button', { type: 'submit', class: 'danger', id: 'delete-account' }, '永久注销账号');
  const f = form([proof.el, submit], submit, async () => {
    msg.hide();
    // Only a complete form is worth the question: an empty field is pointed out first.
    if (!proof.check()) return;
    if (!confirm('注销后账号无法恢复，所有登录和你创建的应用都将失效。确定注销吗？')) return;
    await data('POST', 'account/delete', proof.proof());
    clearToken();
    location.replace('/login?deleted=1');
  }, (e) => msg.error(messageOf(e)));
  const box = h('details', { id: 'delete-section' }, h('summary', {}, '注销账号'),
    h('p', { class: 'muted small' }, '注销后：所有登录立即失效，你创建的应用被停用，用户名和邮箱可被重新注册。此操作无法撤销。'), msg.el, f);
  return h('section', { id: 'danger' }, h('h2', {}, '危险操作'), box);
}
