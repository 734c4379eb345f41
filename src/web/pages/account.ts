import { call, currentUser, data, loginUrl, type Me, type TokenEnvelope } from '../api.js';
import { busy, copyBox, field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf, needsLogin, render } from '../layout.js';
import { sendCode } from './login.js';
import { CaptchaBox } from '../captcha.js';
import { signOut } from '../sign-out.js';
import type { AuthorizedApp, AuthorizedAppList } from '../contracts.js';
import { securitySections } from './account-security.js';
import { changeEmail, changePassword, deleteAccount, editName, sessions } from './account-settings.js';
import { upstreamSection } from './account-upstream.js';

function profile(me: Me): HTMLElement {
  const row = (k: string, v: Node | string) => h('div', { class: 'row' }, h('dt', {}, k), h('dd', {}, v));
  const verified = me.email_verified
    ? h('span', { class: 'badge ok', id: 'email-status' }, '已验证')
    : h('span', { class: 'badge warn', id: 'email-status' }, '未验证');
  return h('dl', { class: 'profile', id: 'profile' },
    row('用户名', h('span', { id: 'profile-username' }, me.username)),
    row('昵称', h('span', { id: 'profile-display-name' }, me.display_name)),
    row('邮箱', me.email === ''
      ? h('span', { class: 'muted', id: 'profile-email' }, '未设置')
      : h('span', {}, h('span', { id: 'profile-email', class: 'current-email' }, me.email), ' ', verified)),
    row('角色', me.roles.join('、') || '无'),
    row('本次登录有效期至', formatTime(me.exp)),
  );
}

function verifyEmail(me: Me): HTMLElement | null {
  // An account made by signing in with another account may have no address to verify.
  if (me.email_verified || me.email === '') return null;
  const msg = notice();
  const code = input('verify_code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字' });
  const send = h('button', { type: 'button', class: 'secondary' }, '发送验证码');
  // send_code asks for a CAPTCHA whenever one is on (docs/abuse.md): solved when the button is pressed.
  const box = new CaptchaBox();
  send.addEventListener('click', () => void sendCode(me.email, 'verify', send, msg, box));
  const submit = h('button', { type: 'submit', class: 'primary' }, '验证邮箱');
  const f = form([box.el, h('div', { class: 'inline' }, field('验证码', code), send), submit], submit, async () => {
    msg.hide();
    await data('POST', 'verify_email', { code: code.value.trim() });
    f.hidden = true;
    msg.ok('邮箱已验证');
    const status = document.getElementById('email-status');
    if (status) {
      status.textContent = '已验证';
      status.className = 'badge ok';
    }
  }, (e) => msg.error(messageOf(e)));
  return h('section', { id: 'verify-email' }, h('h2', {}, '验证邮箱'),
    h('p', { class: 'muted small' }, '验证码将发送到 ', h('span', { class: 'current-email' }, me.email)), msg.el, f);
}

function gameToken(): HTMLElement {
  const msg = notice();
  const out = h('div', { id: 'game-token' });
  const mint = h('button', { type: 'button', class: 'secondary', id: 'mint-game-token' }, '生成游戏令牌');
  mint.addEventListener('click', () => void busy(mint, async () => {
    msg.hide();
    try {
      const env = await call<TokenEnvelope>('POST', 'game_token');
      out.replaceChildren(
        copyBox(env.access_token, '游戏令牌'),
        h('p', { class: 'muted small' }, `有效期 ${Math.round(env.expires_in / 86400)} 天。请像密码一样保管，不要发给他人。`),
      );
    } catch (err) {
      if (needsLogin(err)) return location.replace(loginUrl());
      msg.error(messageOf(err));
    }
  }));
  return h('section', { id: 'game-token-section' }, h('h2', {}, '游戏令牌'),
    h('p', { class: 'muted small' }, '用于粘贴到游戏中登录的长期令牌（30 天）。'), msg.el, mint, out);
}

/** One authorized application: name, scopes, when, and the button that withdraws it. */
function authorizedRow(app: AuthorizedApp, msg: ReturnType<typeof notice>): HTMLElement {
  const revoke = h('button', { type: 'button', class: 'danger small', 'data-client-id': app.client_id }, '撤销授权');
  const row = h('li', { class: 'authorized-app' },
    h('div', {},
      h('strong', { class: 'app-name' }, app.display_name || app.client_id),
      h('p', { class: 'muted small' }, `权限：${app.scopes.join(' ') || '无'}`),
      h('p', { class: 'muted small' }, `授权时间：${formatTime(app.updated_at)}`),
    ),
    revoke,
  );
  revoke.addEventListener('click', () => void busy(revoke, async () => {
    msg.hide();
    try {
      await data('POST', 'account/authorized_apps/revoke', { client_id: app.client_id });
      row.remove();
      msg.ok(`已撤销「${app.display_name || app.client_id}」的授权`);
    } catch (err) {
      if (needsLogin(err)) return location.replace(loginUrl());
      msg.error(messageOf(err));
    }
  }));
  return row;
}

/** The applications signed in with this account (OpenID Connect consents). */
function authorizedApps(): HTMLElement {
  const msg = notice();
  const list = h('ul', { class: 'authorized-apps', id: 'authorized-apps' });
  const section = h('section', { id: 'authorized' }, h('h2', {}, '已授权的应用'), msg.el, list);
  void data<AuthorizedAppList>('GET', 'account/authorized_apps').then(({ apps }) => {
    if (apps.length === 0) list.replaceWith(h('p', { class: 'muted small', id: 'authorized-apps-empty' }, '还没有授权任何应用。'));
    else list.append(...apps.map((a) => authorizedRow(a, msg)));
  }, (err) => msg.error(messageOf(err)));
  return section;
}

function signOutSection(): HTMLElement {
  const msg = notice();
  const out = h('button', { type: 'button', class: 'secondary', id: 'logout' }, '退出登录');
  const all = h('button', { type: 'button', class: 'danger', id: 'logout-all' }, '退出所有设备');
  const leave = (everywhere: boolean) => () => signOut(everywhere).catch((err: unknown) => msg.error(messageOf(err)));
  out.addEventListener('click', () => void busy(out, leave(false)));
  all.addEventListener('click', () => void busy(all, leave(true)));
  return h('section', { id: 'sign-out' }, h('h2', {}, '登录状态'), msg.el, h('div', { class: 'actions' }, out, all));
}

/** Where each part of this long page starts, so nothing needs a scroll to the bottom to find. */
const SECTIONS: Array<[string, string]> = [
  ['profile', '资料'], ['change-password', '安全'], ['two-factor', '两步验证'], ['passkeys', '通行密钥'],
  ['upstream', '第三方账号'], ['session-list', '登录设备'], ['authorized', '已授权的应用'], ['game-token-section', '游戏令牌'], ['danger', '注销账号'],
];

function pageNav(): HTMLElement {
  const links = SECTIONS.map(([id, label]) => h('li', {}, h('a', { href: `#${id}` }, label)));
  const nav = h('nav', { class: 'page-nav', id: 'account-nav', 'aria-label': '本页目录' }, h('ul', {}, ...links));
  // The deletion form sits folded away; its link unfolds it as well as scrolling to it.
  nav.querySelector('a[href="#danger"]')?.addEventListener('click', () => {
    const box = document.getElementById('delete-section');
    if (box instanceof HTMLDetailsElement) box.open = true;
  });
  return nav;
}

export async function accountPage(): Promise<void> {
  let me: Me | null;
  try {
    me = await currentUser();
  } catch (err) {
    render('我的账号', [h('p', { class: 'notice error' }, messageOf(err))]);
    return;
  }
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  render('我的账号', [pageNav(), profile(me), verifyEmail(me), editName(me), changePassword(), changeEmail(me), ...securitySections(), upstreamSection(), sessions(), authorizedApps(), gameToken(), signOutSection(), deleteAccount()].filter((n): n is HTMLElement => n !== null), { me });
}
