/** The audit log view, and the audit table the user detail shows too. */
import { ApiError, data, getToken } from '../api.js';
import type { AuditEntryView, AuditPage } from '../contracts.js';
import {
  busy,
  field,
  form,
  formatTime,
  h,
  input,
  type notice,
} from '../dom.js';
import { messageOf } from '../layout.js';
import {
  auditActionLabel,
  auditActorLabel,
  detailLines,
} from '../audit-labels.js';
import { t } from '../i18n.js';
import { fillPager } from './admin-list-parts.js';

type Notice = ReturnType<typeof notice>;

/** The phrase, with the code under it (and as the tooltip) for the action filter and the CSV. */
const actionCell = (action: string): Node[] => [
  h('span', { title: action }, auditActionLabel(action)),
  h('br', {}),
  h('code', { class: 'muted small' }, action),
];

const detailCell = (detail: unknown): Array<Node | string> => {
  const lines = detailLines(detail);
  return lines.length ? lines.map((line) => h('div', {}, line)) : ['—'];
};

export function auditTable(entries: AuditEntryView[]): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'users audit' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            t('admin.time'),
            t('admin.actor'),
            t('admin.action'),
            t('admin.target'),
            'IP',
            t('admin.detail'),
          ].map((label) => h('th', {}, label)),
        ),
      ),
      h(
        'tbody',
        {},
        ...entries.map((e) =>
          h(
            'tr',
            {},
            h('td', { 'data-label': t('admin.time') }, formatTime(e.at)),
            h(
              'td',
              { 'data-label': t('admin.actor'), title: e.actor ?? '' },
              auditActorLabel(e.actor),
            ),
            h(
              'td',
              { 'data-label': t('admin.action'), class: 'audit-action' },
              ...actionCell(e.action),
            ),
            h('td', { 'data-label': t('admin.target') }, e.target ?? '—'),
            h('td', { 'data-label': 'IP' }, e.ip ?? '—'),
            h(
              'td',
              {
                'data-label': t('admin.detail'),
                class: 'break small audit-detail',
              },
              ...detailCell(e.detail),
            ),
          ),
        ),
      ),
    ),
  );
}

/** `YYYY-MM-DD` of a date input as unix seconds at local midnight (end of day for `to`). */
const dayToSeconds = (v: string, end: boolean) =>
  v
    ? String(
        Math.floor(
          new Date(`${v}T${end ? '23:59:59' : '00:00:00'}`).getTime() / 1000,
        ),
      )
    : '';

export function auditView(msg: Notice): HTMLElement {
  const fields = {
    actor: input('actor', { placeholder: t('admin.actor') }),
    target: input('target', { placeholder: t('admin.target') }),
    action: input('action', { placeholder: t('admin.actionExample') }),
    from: input('from', { type: 'date' }),
    to: input('to', { type: 'date' }),
  };
  const search = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('admin.query'),
  );
  const download = h(
    'button',
    { type: 'button', class: 'secondary', id: 'audit-csv' },
    t('admin.downloadCsv'),
  );
  const out = h('div', { id: 'audit-results' });
  const pager = h('div', { class: 'pager' });
  let page = 1;
  const query = () =>
    new URLSearchParams({
      actor: fields.actor.value.trim(),
      target: fields.target.value.trim(),
      action: fields.action.value.trim(),
      from: dayToSeconds(fields.from.value, false),
      to: dayToSeconds(fields.to.value, true),
    }).toString();
  let latest = 0;
  const load = async () => {
    msg.hide();
    const asked = ++latest;
    try {
      const res = await data<AuditPage>(
        'GET',
        `admin/audit?${query()}&page=${page}`,
      );
      if (asked !== latest) return; // a later query has been asked; its answer is the one to show
      out.replaceChildren(
        res.entries.length
          ? auditTable(res.entries)
          : h('p', { class: 'muted' }, t('admin.noEntries')),
      );
      fillPager(
        pager,
        {
          page,
          total: res.total,
          pageSize: 50,
          key: 'admin.auditPage',
          id: 'audit-total',
        },
        (by) => {
          page += by;
          void load();
        },
      );
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  // The token lives in localStorage, so the file is fetched with it and handed over as a blob.
  download.addEventListener(
    'click',
    () =>
      void busy(download, async () => {
        const res = await fetch(`/api/v1/auth/admin/audit/export?${query()}`, {
          headers: { authorization: `Bearer ${getToken() ?? ''}` },
          cache: 'no-store',
        });
        if (!res.ok)
          return msg.error(
            messageOf(
              new ApiError(
                res.status,
                t('admin.downloadFailed', { status: res.status }),
              ),
            ),
          );
        const link = h('a', {
          href: URL.createObjectURL(await res.blob()),
          download: 'audit.csv',
        });
        document.body.append(link);
        link.click();
        link.remove();
      }),
  );
  void load();
  const f = form(
    [
      h(
        'div',
        { class: 'filters' },
        field(t('admin.actor'), fields.actor),
        field(t('admin.target'), fields.target),
        field(t('admin.action'), fields.action),
        field(t('admin.from'), fields.from),
        field(t('admin.to'), fields.to),
      ),
      h('div', { class: 'actions' }, search, download),
    ],
    search,
    async () => {
      page = 1;
      await load();
    },
    (e) => msg.error(messageOf(e)),
  );
  return h('div', { id: 'admin-audit' }, f, out, pager);
}
