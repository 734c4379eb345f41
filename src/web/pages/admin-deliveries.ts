/** The delivery tables of the webhook console: each try, its outcome in words, and sending again. */
import { data } from '../api.js';
import type { DeliveryView } from '../contracts.js';
import { busy, formatTime, h, type notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { t, type MessageKey } from '../i18n.js';

export type Notice = ReturnType<typeof notice>;
const STATUS: Record<string, MessageKey> = {
  pending: 'webhooks.status.pending',
  delivered: 'webhooks.status.delivered',
  failed: 'webhooks.status.failed',
};
const statusText = (status: string) =>
  Object.hasOwn(STATUS, status) ? t(STATUS[status]!) : status;

/**
 * Why a delivery is where it is, in the page's language: the HTTP answer, or the reason the
 * sender recorded when none came (an address refused as internal, a timeout, a network error).
 */
function outcome(d: DeliveryView): HTMLElement {
  const raw = d.response.trim();
  if (d.http_status !== null) {
    return h(
      'div',
      { class: 'delivery-outcome' },
      h('strong', {}, `HTTP ${d.http_status}`),
      raw ? h('div', { class: 'muted small clip', title: raw }, raw) : null,
    );
  }
  const known: Array<[RegExp, (m: RegExpExecArray) => string]> = [
    [
      /^refused: (.+) resolves to an internal address$/,
      (m) => t('webhooks.reason.resolvesInternal', { host: m[1]! }),
    ],
    [/^refused: an internal address$/, () => t('webhooks.reason.internal')],
    [
      /^refused: only http and https addresses$/,
      () => t('webhooks.reason.scheme'),
    ],
    [
      /^no answer within (\d+) s$/,
      (m) => t('webhooks.reason.timeout', { s: m[1]! }),
    ],
    [
      /^network error: (.*)$/,
      (m) => t('webhooks.reason.network', { error: m[1]! }),
    ],
    [/^not sent: (.*)$/, (m) => t('webhooks.reason.notSent', { error: m[1]! })],
  ];
  for (const [pattern, text] of known) {
    const m = pattern.exec(raw);
    if (m) return h('div', { class: 'delivery-outcome', title: raw }, text(m));
  }
  return h(
    'div',
    { class: 'delivery-outcome muted' },
    raw || (d.tries === 0 ? t('webhooks.reason.notTried') : '—'),
  );
}

/** Deliveries with their status, outcome and a redeliver button; `first` names what each went to or carried. */
export function deliveryTable<D extends DeliveryView>(
  attrs: Record<string, string>,
  deliveries: D[],
  first: [string, (d: D) => HTMLElement],
  empty: string,
  msg: Notice,
  reload: () => Promise<void>,
): HTMLElement {
  if (deliveries.length === 0)
    return h('p', { class: 'muted small', ...attrs }, empty);
  const columns = [
    first[0],
    t('webhooks.col.status'),
    t('webhooks.col.outcome'),
    t('webhooks.col.tries'),
    t('webhooks.col.time'),
    '',
  ];
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'users deliveries', ...attrs },
      h('thead', {}, h('tr', {}, ...columns.map((c) => h('th', {}, c)))),
      h(
        'tbody',
        {},
        ...deliveries.map((d) => {
          const again = h(
            'button',
            {
              type: 'button',
              class: 'secondary small-button',
              'data-action': 'redeliver',
            },
            t('webhooks.redeliver'),
          );
          again.addEventListener(
            'click',
            () =>
              void busy(again, async () => {
                await data('POST', 'admin/webhooks/redeliver', {
                  id: d.id,
                }).then(
                  () => {
                    msg.ok(t('webhooks.requeued'));
                    return reload();
                  },
                  (e: unknown) => msg.error(messageOf(e)),
                );
              }),
          );
          const next =
            d.status === 'pending' && d.next_try_at !== null
              ? h(
                  'div',
                  { class: 'muted small' },
                  t('webhooks.nextTry', { time: formatTime(d.next_try_at) }),
                )
              : null;
          const cell = (
            label: string,
            ...children: Array<Node | string | null>
          ) => h('td', { 'data-label': label }, ...children);
          const firstCell = first[1](d);
          firstCell.dataset.label = first[0];
          return h(
            'tr',
            { 'data-status': d.status },
            firstCell,
            cell(
              columns[1]!,
              h(
                'span',
                { class: d.status === 'delivered' ? 'badge ok' : 'badge warn' },
                statusText(d.status),
              ),
              next,
            ),
            cell(columns[2]!, outcome(d)),
            cell(columns[3]!, String(d.tries)),
            cell(columns[4]!, formatTime(d.last_try_at ?? d.created_at)),
            h('td', { class: 'row-action' }, again),
          );
        }),
      ),
    ),
  );
}
