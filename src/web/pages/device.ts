import { currentUser, data, loginUrl } from '../api.js';
import { busy, field, h, input, notice } from '../dom.js';
import { messageOf, needsLogin, render } from '../layout.js';

interface Approved {
  client_id: string;
  display_name: string;
}

/** Approve (or refuse) a device sign-in by its 6-digit code, shown on the device. */
export async function devicePage(): Promise<void> {
  const me = await currentUser().catch(() => null);
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  const msg = notice();
  const given = (new URLSearchParams(location.search).get('user_code') ?? '').replace(/\D/g, '').slice(0, 6);
  const code = input('user_code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字', value: given, class: 'code-input' });
  const approve = h('button', { type: 'button', class: 'primary', id: 'approve' }, '确认登录');
  const deny = h('button', { type: 'button', class: 'secondary', id: 'deny' }, '拒绝');
  const result = h('div', { class: 'result', id: 'device-result', hidden: true });
  const controls = h('div', {}, field('设备上显示的验证码', code), h('div', { class: 'actions' }, approve, deny));

  const decide = (refuse: boolean) => async () => {
    msg.hide();
    const userCode = code.value.replace(/\s/g, '');
    if (!/^\d{6}$/.test(userCode)) return msg.error('请输入设备上显示的 6 位数字验证码');
    try {
      const app = await data<Approved>('POST', 'device/approve', refuse ? { user_code: userCode, deny: true } : { user_code: userCode });
      const name = app.display_name || app.client_id;
      controls.hidden = true;
      result.hidden = false;
      result.textContent = refuse ? `已拒绝「${name}」的登录请求。` : `已允许「${name}」使用账号 ${me.username} 登录，请回到设备上继续。`;
      result.className = refuse ? 'result notice error' : 'result notice success';
    } catch (err) {
      if (needsLogin(err)) return location.replace(loginUrl());
      msg.error(messageOf(err));
    }
  };
  approve.addEventListener('click', () => void busy(approve, decide(false)));
  deny.addEventListener('click', () => void busy(deny, decide(true)));
  render('设备登录', [
    h('p', {}, '游戏、启动器或桌面程序会显示一个 6 位验证码。确认它与设备上显示的一致后再登录。'),
    h('p', { class: 'muted small' }, '当前账号：', h('strong', {}, me.username)),
    msg.el, controls, result,
  ], { me });
  if (!given) code.focus();
}
