/**
 * 邀请码 in the admin console (docs/abuse.md): the invite codes of REGISTRATION=invite, made
 * with a number of uses and an expiry, listed with what is used, and removed. A code is shown
 * once, when it is made; the list knows only its id.
 */
import { data } from '../api.js';
import type { InviteView, NewInviteView } from '../contracts.js';
import { busy, copyLine, field, form, h, input, notice } from '../dom.js';
import { messageOf } from '../layout.js';

type Notice = ReturnType<typeof notice>;
const DAY_S = 86_400;
const when = (ms: number) => new Date(ms).toLocaleString('zh-CN', { hour12: false });

function inviteRow(i: InviteView, msg: Notice, reload: () => Promise<void>): HTMLElement {
  const remove = h('button', { type: 'button', class: 'danger small-button' }, '删除');
  remove.addEventListener('click', () => void busy(remove, async () => {
    if (!confirm('删除这个邀请码？尚未使用的次数将作废。')) return;
    await data('POST', 'admin/invites/remove', { id: i.id }).then(reload, (e: unknown) => msg.error(messageOf(e)));
  }));
  const expired = i.expires_at !== null && i.expires_at <= Date.now();
  const left = i.uses - i.used;
  return h('li', { class: 'invite', 'data-invite': i.id },
    h('div', { class: 'inline tight' }, h('code', {}, i.id),
      h('span', { class: left > 0 && !expired ? 'badge ok' : 'badge warn' }, expired ? '已过期' : left > 0 ? `剩余 ${left} 次` : '已用完')),
    h('div', { class: 'muted small' }, `已用 ${i.used} / ${i.uses} 次 · ${i.expires_at === null ? '永不过期' : `${when(i.expires_at)} 过期`} · ${i.created_by} 创建于 ${when(i.created_at)}`),
    h('div', { class: 'actions' }, remove));
}

export function invitesView(msg: Notice): HTMLElement {
  const list = h('ul', { class: 'plain invites', id: 'invites' });
  const made = h('div', { id: 'invite-made' });
  const uses = input('uses', { type: 'number', min: '1', max: '10000', value: '1', required: true });
  const days = input('expires_days', { type: 'number', min: '1', max: '3650', placeholder: '留空为永不过期' });
  const submit = h('button', { type: 'submit', class: 'primary' }, '生成邀请码');
  const reload = async () => {
    const { invites } = await data<{ invites: InviteView[] }>('GET', 'admin/invites');
    list.replaceChildren(...(invites.length ? invites.map((i) => inviteRow(i, msg, reload)) : [h('li', { class: 'muted' }, '还没有邀请码')]));
  };
  const create = form([field('可用次数', uses), field('有效天数', days, '留空为永不过期'), submit], submit, async () => {
    msg.hide();
    const body: Record<string, number> = { uses: Number(uses.value) };
    if (days.value.trim()) body.expires_in = Number(days.value) * DAY_S;
    const invite = await data<NewInviteView>('POST', 'admin/invites', body);
    made.replaceChildren(h('p', { class: 'notice success' }, '邀请码已生成，只显示这一次：'), copyLine(invite.code, '邀请码'));
    await reload();
  }, (e) => msg.error(messageOf(e)));
  void reload().catch((e: unknown) => msg.error(messageOf(e)));
  return h('div', { id: 'invites-view' },
    h('p', { class: 'muted small' }, '设置 REGISTRATION=invite 后，注册需要填写邀请码；每次注册用掉一次。'),
    h('h2', {}, '生成邀请码'), create, made, h('h2', {}, '邀请码'), list);
}
