/** /account sections for second factors: the authenticator app with its recovery codes, and passkeys. */
import { startRegistration } from '@simplewebauthn/browser';
import { ApiError, data } from '../api.js';
import { busy, copyButton, downloadButton, field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { authenticatorChanged, reauthFields } from '../reauth.js';
import type { PasskeyView, RecoveryCodesData, SecondFactorStatus, TotpSetupData } from '../contracts.js';

/** Recovery codes, shown once, right under the section heading. */
function showRecoveryCodes(box: HTMLElement, codes: string[]): void {
  const list = h('div', { class: 'recovery' },
    h('p', { class: 'notice success' }, '请立即保存以下恢复码：每个只能用一次，此后不再显示。'),
    h('ul', { id: 'recovery-codes', class: 'codes' }, ...codes.map((c) => h('li', {}, h('code', {}, c)))),
    h('div', { class: 'actions' },
      copyButton(codes.join('\n'), 'recovery-copy'),
      downloadButton(`${codes.join('\n')}\n`, 'recovery-codes.txt', 'recovery-download')));
  const heading = box.querySelector('h2');
  if (heading) heading.after(list);
  else box.prepend(list);
}

function totpOff(box: HTMLElement, refresh: () => Promise<void>): HTMLElement[] {
  const msg = notice();
  const proof = reauthFields('totp_setup');
  const start = h('button', { type: 'submit', class: 'primary', id: 'totp-setup' }, '开启两步验证');
  const step = h('div', {});
  // The password is asked before the secret is shown; the code then confirms it in this session.
  const startForm = form([h('div', { class: 'inline' }, proof.el, start)], start, async () => {
    msg.hide();
    try {
      const setup = await data<TotpSetupData>('POST', 'account/totp/setup', proof.proof());
      startForm.hidden = true;
      const code = input('totp_code', { inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: '6', placeholder: '6 位数字' });
      const confirm = h('button', { type: 'submit', class: 'primary', id: 'totp-enable' }, '确认开启');
      step.replaceChildren(
        h('p', { class: 'muted small' }, '用身份验证器应用（如 Google Authenticator、Microsoft Authenticator）扫描二维码，或手动输入密钥：'),
        h('img', { src: setup.qr, alt: '两步验证二维码', class: 'qr', width: '220', height: '220' }),
        h('p', {}, '密钥：', h('code', { id: 'totp-secret' }, setup.secret)),
        form([field('应用中显示的验证码', code), confirm], confirm, async () => {
          msg.hide();
          const { recovery_codes } = await data<RecoveryCodesData>('POST', 'account/totp/enable', { code: code.value.trim() });
          await refresh();
          showRecoveryCodes(box, recovery_codes);
        }, (e) => msg.error(messageOf(e))),
      );
    } catch (err) {
      msg.error(messageOf(err));
    }
  }, (e) => msg.error(messageOf(e)));
  return [h('p', { class: 'muted small' }, '登录时除密码外还需输入身份验证器应用中的验证码。请先输入当前密码。'), msg.el, startForm, step];
}

function totpOn(status: SecondFactorStatus, box: HTMLElement, refresh: () => Promise<void>): HTMLElement[] {
  const msg = notice();
  const password = input('totp_off_password', { type: 'password', autocomplete: 'current-password' });
  const regenPassword = input('recovery_code_password', { type: 'password', autocomplete: 'current-password' });
  const offCode = input('totp_off_code', { autocomplete: 'one-time-code', placeholder: '验证码或恢复码' });
  const off = h('button', { type: 'submit', class: 'danger', id: 'totp-disable' }, '关闭两步验证');
  const offForm = form([field('密码', password), field('验证码', offCode), off], off, async () => {
    msg.hide();
    await data('POST', 'account/totp/disable', { current_password: password.value, otp: offCode.value.trim() });
    await refresh();
  }, (e) => msg.error(messageOf(e)));
  const newCode = input('recovery_code_otp', { autocomplete: 'one-time-code', placeholder: '验证码或恢复码' });
  const regen = h('button', { type: 'submit', class: 'secondary', id: 'recovery-regenerate' }, '重新生成恢复码');
  const regenForm = form([field('当前密码', regenPassword), field('验证码', newCode), regen], regen, async () => {
    msg.hide();
    const { recovery_codes } = await data<RecoveryCodesData>('POST', 'account/recovery_codes', { current_password: regenPassword.value, otp: newCode.value.trim() });
    await refresh();
    showRecoveryCodes(box, recovery_codes);
  }, (e) => msg.error(messageOf(e)));
  return [
    h('p', {}, h('span', { class: 'badge ok', id: 'totp-status' }, '已开启'), ` 剩余恢复码 ${status.recovery_codes_left} 个`),
    msg.el, h('h3', {}, '新的恢复码'), regenForm, h('h3', {}, '关闭'), offForm,
  ];
}

function passkeyRow(p: PasskeyView, refresh: () => Promise<void>, msg: ReturnType<typeof notice>): HTMLElement {
  const del = h('button', { type: 'button', class: 'danger', 'data-action': 'delete-passkey' }, '删除');
  // Deleting asks for the password first, in a small form under the row.
  const proof = reauthFields('passkey_delete');
  const confirmDel = h('button', { type: 'submit', class: 'danger', 'data-action': 'confirm-delete-passkey' }, '确认删除');
  const confirmForm = form([h('div', { class: 'inline' }, proof.el, confirmDel)], confirmDel, async () => {
    await data('POST', 'account/passkeys/delete', { id: p.id, ...proof.proof() });
    await refresh();
  }, (e) => msg.error(messageOf(e)));
  confirmForm.hidden = true;
  del.addEventListener('click', () => { confirmForm.hidden = false; });
  return h('li', { class: 'passkey', 'data-passkey': p.name },
    h('strong', {}, p.name), ' ',
    h('span', { class: 'muted small' }, `添加于 ${formatTime(p.created_at)}，${p.last_used_at === null ? '尚未使用' : `上次使用 ${formatTime(p.last_used_at)}`}`),
    ' ', del, confirmForm);
}

function passkeys(status: SecondFactorStatus, refresh: () => Promise<void>): HTMLElement[] {
  const msg = notice();
  const name = input('passkey_name', { maxlength: '64', placeholder: '例如：我的笔记本' });
  const proof = reauthFields('passkey_add');
  const add = h('button', { type: 'submit', class: 'secondary', id: 'passkey-add' }, '添加通行密钥');
  const addForm = form([field('名称', name), h('div', { class: 'inline' }, proof.el, add)], add, async () => {
    msg.hide();
    const optionsJSON = await data<Parameters<typeof startRegistration>[0]['optionsJSON']>('POST', 'account/passkeys/options', proof.proof());
    proof.reset();
    let response;
    try {
      response = await startRegistration({ optionsJSON });
    } catch {
      throw new ApiError(0, '未能创建通行密钥，请重试');
    }
    await data('POST', 'account/passkeys/register', { name: name.value.trim(), response });
    await refresh();
  }, (e) => msg.error(messageOf(e)));
  const list = status.passkeys.length
    ? h('ul', { class: 'passkeys', id: 'passkey-list' }, ...status.passkeys.map((p) => passkeyRow(p, refresh, msg)))
    : h('p', { class: 'muted small', id: 'passkey-list' }, '还没有通行密钥。');
  return [h('p', { class: 'muted small' }, '通行密钥让你无需输入用户名和密码即可登录（同时算作两步验证）。'), msg.el, list, addForm];
}

/** The two sections, reloaded after every change. */
export function securitySections(): HTMLElement[] {
  const totpBox = h('section', { id: 'two-factor' }, h('h2', {}, '两步验证'));
  const passkeyBox = h('section', { id: 'passkeys' }, h('h2', {}, '通行密钥'));
  const refresh = async () => {
    const status = await data<SecondFactorStatus>('GET', 'account/second_factor');
    authenticatorChanged(status.totp);
    totpBox.replaceChildren(h('h2', {}, '两步验证'), ...(status.totp ? totpOn(status, totpBox, refresh) : totpOff(totpBox, refresh)));
    passkeyBox.replaceChildren(h('h2', {}, '通行密钥'), ...passkeys(status, refresh));
  };
  void refresh().catch((err: unknown) => totpBox.append(h('p', { class: 'notice error' }, messageOf(err))));
  return [totpBox, passkeyBox];
}
