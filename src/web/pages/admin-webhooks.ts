/**
 * Webhooks in the admin console (docs/webhooks.md): the endpoints, each one's recent
 * deliveries with a redeliver button, a test event, removal, and a form to add one whose
 * secret is shown once.
 */
import { data } from '../api.js';
import type { CreatedWebhook, DeliveryView, WebhookView } from '../contracts.js';
import { busy, copyBox, field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';

type Notice = ReturnType<typeof notice>;
const STATUS: Record<string, string> = { pending: '待重试', delivered: '已送达', failed: '已放弃' };

function deliveryTable(endpoint: WebhookView, deliveries: DeliveryView[], msg: Notice, reload: () => Promise<void>): HTMLElement {
  if (deliveries.length === 0) return h('p', { class: 'muted small' }, '还没有投递');
  return h('table', { class: 'deliveries', 'data-endpoint': endpoint.id },
    h('thead', {}, h('tr', {}, ...['事件', '状态', 'HTTP', '次数', '时间', ''].map((c) => h('th', {}, c)))),
    h('tbody', {}, ...deliveries.map((d) => {
      const again = h('button', { type: 'button', class: 'secondary small-button', 'data-action': 'redeliver' }, '重新投递');
      again.addEventListener('click', () => void busy(again, async () => {
        await data('POST', 'admin/webhooks/redeliver', { id: d.id }).then(() => { msg.ok('已重新排队'); return reload(); }, (e: unknown) => msg.error(messageOf(e)));
      }));
      return h('tr', { 'data-status': d.status },
        h('td', {}, d.event), h('td', { title: d.response }, STATUS[d.status] ?? d.status), h('td', {}, d.http_status === null ? '—' : String(d.http_status)),
        h('td', {}, String(d.tries)), h('td', {}, formatTime(d.last_try_at ?? d.created_at)), h('td', {}, again));
    })));
}

async function endpointItem(w: WebhookView, msg: Notice, reload: () => Promise<void>): Promise<HTMLElement> {
  const { deliveries } = await data<{ deliveries: DeliveryView[] }>('GET', `admin/webhooks/deliveries?id=${encodeURIComponent(w.id)}`);
  const test = h('button', { type: 'button', class: 'secondary small-button', 'data-action': 'test' }, '发送测试事件');
  test.addEventListener('click', () => void busy(test, async () => {
    await data('POST', 'admin/webhooks/test', { id: w.id }).then(() => { msg.ok('测试事件已排队'); return reload(); }, (e: unknown) => msg.error(messageOf(e)));
  }));
  const remove = h('button', { type: 'button', class: 'danger small-button', 'data-action': 'remove' }, '删除');
  remove.addEventListener('click', () => void busy(remove, async () => {
    if (!confirm(`删除 Webhook ${w.url}？未送达的事件一并丢弃。`)) return;
    await data('POST', 'admin/webhooks/remove', { id: w.id }).then(reload, (e: unknown) => msg.error(messageOf(e)));
  }));
  // Switching on again is how an endpoint switched off for failing comes back; the dashboard's notice goes with it.
  const toggle = h('button', { type: 'button', class: 'secondary small-button', 'data-action': w.enabled ? 'disable' : 'enable' }, w.enabled ? t('admin.webhookDisable') : t('admin.webhookEnable'));
  toggle.addEventListener('click', () => void busy(toggle, async () => {
    await data('POST', 'admin/webhooks/update', { id: w.id, enabled: !w.enabled }).then(reload, (e: unknown) => msg.error(messageOf(e)));
  }));
  const state = w.enabled ? (w.failing_since === null ? '正常' : `自 ${formatTime(w.failing_since)} 起投递失败`) : w.disabled_at === null ? '已停用' : `连续失败 3 天，${formatTime(w.disabled_at)} 停用`;
  return h('li', { class: 'webhook', 'data-webhook': w.id },
    h('div', { class: 'inline tight' }, h('strong', {}, w.url), h('span', { class: w.enabled && w.failing_since === null ? 'badge ok' : 'badge warn' }, state)),
    h('div', { class: 'muted small' }, `${w.description || '无说明'} · 事件：${w.events.length ? w.events.join('、') : '全部'}`),
    h('div', { class: 'actions' }, test, toggle, remove),
    deliveryTable(w, deliveries, msg, reload));
}

function addForm(msg: Notice, reload: () => Promise<void>, shown: HTMLElement): HTMLElement {
  const url = input('url', { type: 'url', required: true, placeholder: 'https://forum.example.com/hooks/center' });
  const description = input('description', {});
  const events = input('events', { placeholder: '留空为全部，如 user.banned,user.unbanned' });
  const submit = h('button', { type: 'submit' }, '添加 Webhook');
  return form([field('地址', url), field('说明', description), field('事件类型', events), submit], submit, async () => {
    const body = { url: url.value, description: description.value, events: events.value.split(/[\s,，]+/).filter(Boolean) };
    const created = await data<CreatedWebhook>('POST', 'admin/webhooks', body);
    shown.replaceChildren(h('p', { class: 'notice success' }, '签名密钥只显示这一次，请交给接收方保存：'), copyBox(created.secret, 'Webhook 签名密钥'));
    await reload();
  }, (e: unknown) => msg.error(messageOf(e)));
}

export function webhooksView(msg: Notice): HTMLElement {
  const list = h('ul', { class: 'plain webhooks', id: 'webhooks' });
  const shown = h('div', { id: 'webhook-created' });
  const reload = async () => {
    const { webhooks } = await data<{ webhooks: WebhookView[] }>('GET', 'admin/webhooks');
    list.replaceChildren(...(webhooks.length ? await Promise.all(webhooks.map((w) => endpointItem(w, msg, reload))) : [h('li', { class: 'muted' }, '还没有 Webhook')]));
  };
  void reload().catch((e: unknown) => msg.error(messageOf(e)));
  return h('div', { id: 'webhooks-view' },
    h('p', { class: 'muted small' }, '封禁、解封、角色变更等事件会以签名请求（Standard Webhooks）发送到这些地址，失败后自动重试 3 天。'),
    list, h('h2', {}, '添加 Webhook'), shown, addForm(msg, reload, shown));
}
