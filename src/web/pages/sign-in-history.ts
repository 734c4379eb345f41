/**
 * 登录记录 on /account and on a user's admin page (docs/api.md §17): the last 50 sign-ins of
 * 90 days with time, address, browser and how, and the person's switch for the e-mail about
 * a sign-in from a browser or address the account had not used.
 */
import { data, loginUrl } from '../api.js';
import type { SignInList, SignInNoticeView, SignInView } from '../contracts.js';
import { formatTime, h, notice } from '../dom.js';
import { messageOf, needsLogin } from '../layout.js';
import { deviceOf } from './account-settings.js';

const METHODS: Record<string, string> = {
  password: '密码', email_code: '邮箱验证码', passkey: '通行密钥', device: '设备授权', oidc: '第三方应用（OpenID Connect）',
};

export function methodLabel(method: string): string {
  if (method.startsWith('upstream:')) return `第三方账号（${method.slice('upstream:'.length)}）`;
  return METHODS[method] ?? method;
}

/** The sign-ins as a table; the full user agent is the browser cell's title. */
export function signInTable(list: SignInView[], id: string): HTMLElement {
  if (list.length === 0) return h('p', { class: 'muted small', id }, '90 天内没有登录记录。');
  return h('div', { class: 'table-wrap' }, h('table', { class: 'users sign-ins', id },
    h('thead', {}, h('tr', {}, ...['时间', '方式', 'IP', '浏览器'].map((t) => h('th', {}, t)))),
    h('tbody', {}, ...list.map((s) => h('tr', { class: 'sign-in' },
      h('td', { 'data-label': '时间' }, formatTime(s.at)),
      h('td', { 'data-label': '方式', class: 'sign-in-method' }, methodLabel(s.method)),
      h('td', { 'data-label': 'IP', class: 'sign-in-ip' }, s.ip),
      h('td', { 'data-label': '浏览器', class: 'break small', title: s.user_agent }, deviceOf(s.user_agent)))))));
}

function noticeSwitch(msg: ReturnType<typeof notice>): HTMLElement {
  const box = h('input', { type: 'checkbox', id: 'f-sign_in_notice', name: 'sign_in_notice', disabled: true });
  void data<SignInNoticeView>('GET', 'account/sign_in_notice').then((s) => {
    box.checked = s.enabled;
    box.disabled = false;
  }, (err) => msg.error(messageOf(err)));
  box.addEventListener('change', () => {
    const wanted = box.checked;
    box.disabled = true;
    msg.hide();
    void data<SignInNoticeView>('POST', 'account/sign_in_notice', { enabled: wanted }).then((s) => {
      box.checked = s.enabled;
      msg.ok(s.enabled ? '已开启新设备登录提醒' : '已关闭新设备登录提醒');
    }, (err) => {
      box.checked = !wanted;
      if (needsLogin(err)) return location.replace(loginUrl());
      msg.error(messageOf(err));
    }).finally(() => { box.disabled = false; });
  });
  return h('label', { class: 'check' }, box, ' 在新的浏览器或网络地址登录时发邮件提醒我');
}

export function signInHistorySection(): HTMLElement {
  const msg = notice();
  const body = h('div', { id: 'sign-in-list-body' });
  void data<SignInList>('GET', 'account/sign_ins').then(({ sign_ins }) => {
    body.replaceChildren(signInTable(sign_ins, 'sign-in-list'));
  }, (err) => {
    if (needsLogin(err)) return location.replace(loginUrl());
    msg.error(messageOf(err));
  });
  return h('section', { id: 'sign-in-history' }, h('h2', {}, '登录记录'),
    h('p', { class: 'muted small' }, '最近 90 天内的最后 50 次登录。不认识的登录请在“登录设备”中退出并修改密码。'),
    msg.el, noticeSwitch(msg), body);
}

/** For the user's admin page. */
export async function adminSignInsView(username: string): Promise<HTMLElement> {
  const { sign_ins } = await data<SignInList>('GET', `admin/users/sign_ins?username=${encodeURIComponent(username)}`);
  return h('div', { id: 'admin-sign-ins' }, h('h2', {}, `登录记录（最近 ${sign_ins.length} 次）`), signInTable(sign_ins, 'admin-sign-in-list'));
}
