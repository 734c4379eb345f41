import type { DeviceRequest as DeviceRequestData } from '../contracts.js';
import { currentUser, data, loginUrl, type Me } from '../api.js';
import { busy, field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf, needsLogin, render } from '../layout.js';
import { siteName } from '../site.js';

interface Approved {
  client_id: string;
  display_name: string;
}

const minutesAgo = (unixSeconds: number): string => {
  const m = Math.max(0, Math.round((Date.now() / 1000 - unixSeconds) / 60));
  return m === 0 ? '刚刚' : `${m} 分钟前`;
};

/**
 * Who asks, shown before the user may confirm (docs/api.md §11, RFC 8628 §5.4): the app's name and
 * id, what the device gets, when the request started, and the warning against codes that
 * someone else sent. A link with the code filled in is one way attackers start phishing.
 */
function describe(req: DeviceRequestData, me: Me): HTMLElement {
  const name = req.display_name || req.client_id;
  const grant = req.first_party
    ? h('p', {}, h('strong', {}, `这是${siteName()}本身的登录：确认后，该设备将获得你账号的完全访问权限`), '（可以管理你的应用、以你的身份登录其他应用）。')
    : h('p', {}, `确认后，该应用将以你的身份（${me.username}）登录。`);
  return h('div', { class: 'device-request', id: 'device-request' },
    h('h3', {}, `「${name}」请求登录`),
    h('p', { class: 'small' }, '应用标识：', h('code', { id: 'device-client-id' }, req.client_id)),
    grant,
    h('p', { class: 'small muted', id: 'device-started' }, `请求发起于 ${formatTime(req.created_at)}（${minutesAgo(req.created_at)}）`),
    h('p', { class: 'notice warning', id: 'device-warning' },
      '只有当这个验证码正显示在你自己面前的设备屏幕上时，才点「确认登录」。如果验证码或链接是别人发给你的，请点「拒绝」：对方可能正在骗取你的账号。'),
  );
}

/**
 * Approve (or refuse) a device sign-in by its 6-digit code, in two steps: the code is looked up
 * (Enter or 下一步), the page shows who asks, and only then do 确认登录 and 拒绝 appear, each
 * acting on the first click. Editing the code goes back to the first step.
 */
export async function devicePage(): Promise<void> {
  const me = await currentUser().catch(() => null);
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  const msg = notice();
  const given = (new URLSearchParams(location.search).get('user_code') ?? '').replace(/\D/g, '').slice(0, 6);
  const code = input('user_code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字', value: given, class: 'code-input' });
  const next = h('button', { type: 'submit', class: 'primary', id: 'device-next' }, '下一步');
  const approve = h('button', { type: 'button', class: 'primary', id: 'approve' }, '确认登录');
  const deny = h('button', { type: 'button', class: 'secondary', id: 'deny' }, '拒绝');
  const details = h('div', {});
  const decision = h('div', { class: 'actions', id: 'device-decision', hidden: true }, approve, deny);
  const result = h('div', { class: 'result', id: 'device-result', hidden: true });
  /** The code whose request is on screen: only that one can be confirmed. */
  let shown: string | undefined;

  const failed = (err: unknown) => {
    if (needsLogin(err)) return location.replace(loginUrl());
    msg.error(messageOf(err));
  };
  const inspect = async (userCode: string) => {
    try {
      const req = await data<DeviceRequestData>('POST', 'device/inspect', { user_code: userCode });
      // The answer may arrive after the user changed the code: show it only for the code typed.
      if (code.value.replace(/\s/g, '') !== userCode) return;
      details.replaceChildren(describe(req, me));
      shown = userCode;
      next.hidden = true;
      decision.hidden = false;
      msg.hide();
      approve.focus();
    } catch (err) {
      failed(err);
    }
  };
  const lookUp = async () => {
    msg.hide();
    const userCode = code.value.replace(/\s/g, '');
    if (!/^\d{6}$/.test(userCode)) return msg.error('请输入设备上显示的 6 位数字验证码');
    await inspect(userCode);
  };
  const step = form([field('设备上显示的验证码', code), next], next, lookUp, failed);
  // A changed code is a new question: the old answer, error or request no longer applies.
  code.addEventListener('input', () => {
    shown = undefined;
    details.replaceChildren();
    decision.hidden = true;
    next.hidden = false;
    msg.hide();
  });

  const decide = (refuse: boolean) => async () => {
    msg.hide();
    // Only the request on screen can be decided (docs/api.md §11): never a code nobody looked at.
    const userCode = shown;
    if (!userCode) return;
    try {
      const app = await data<Approved>('POST', 'device/approve', refuse ? { user_code: userCode, deny: true } : { user_code: userCode });
      const name = app.display_name || app.client_id;
      controls.hidden = true;
      result.hidden = false;
      result.textContent = refuse ? `已拒绝「${name}」的登录请求。` : `已允许「${name}」使用账号 ${me.username} 登录，请回到设备上继续。`;
      result.className = refuse ? 'result notice error' : 'result notice success';
    } catch (err) {
      failed(err);
    }
  };
  const controls = h('div', {}, step, details, decision);
  approve.addEventListener('click', () => void busy(approve, decide(false)));
  deny.addEventListener('click', () => void busy(deny, decide(true)));
  render('设备登录', [
    h('p', {}, '游戏、启动器或桌面程序会显示一个 6 位验证码。输入后点「下一步」，核对请求信息，再点「确认登录」。'),
    h('p', { class: 'muted small' }, '当前账号：', h('strong', {}, me.username)),
    msg.el, controls, result,
  ], { me });
  // A code from the link is looked up at once, but never confirmed without the user's click.
  if (given.length === 6) await busy(next, lookUp);
  else code.focus();
}
