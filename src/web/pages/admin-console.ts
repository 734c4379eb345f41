/** The administration tabs and the dashboard; the other views live in their own modules. */
import { data } from '../api.js';
import type { Dashboard } from '../contracts.js';
import { barChart } from '../chart.js';
import { formatTime, h, type notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';

type Notice = ReturnType<typeof notice>;

const VIEWS: Array<[string, string]> = [
  ['dashboard', t('admin.overview')],
  ['', t('admin.usersTab')],
  ['apps', t('admin.apps')],
  ['providers', t('admin.providers')],
  ['invites', t('admin.invites')],
  ['roles', t('admin.roles')],
  ['webhooks', t('admin.webhooks')],
  ['audit', t('admin.audit')],
];

export function adminTabs(current: string): HTMLElement {
  return h(
    'nav',
    { class: 'tabs', 'aria-label': t('admin.admin') },
    ...VIEWS.map(([view, label]) =>
      h(
        'a',
        {
          class: view === current ? 'tab active' : 'tab',
          href: view ? `/admin?view=${view}` : '/admin',
        },
        label,
      ),
    ),
  );
}

const total = (s: Array<{ count: number }>) =>
  s.reduce((n, p) => n + p.count, 0);

export async function dashboardView(msg: Notice): Promise<HTMLElement> {
  const box = h('div', { id: 'dashboard' });
  try {
    const d = await data<Dashboard>('GET', 'admin/dashboard');
    const figure = (label: string, value: number, id: string) =>
      h(
        'div',
        { class: 'figure', id },
        h('div', { class: 'figure-value' }, String(value)),
        h('div', { class: 'muted small' }, label),
      );
    const chart = (title: string, series: Dashboard['new_users'], id: string) =>
      h(
        'figure',
        { class: 'chart-box', id },
        h(
          'figcaption',
          {},
          t('admin.chartCaption', { title, total: total(series) }),
        ),
        barChart(series, title),
      );
    if (d.switched_off_webhooks.length) {
      box.append(
        h(
          'div',
          { class: 'notice error', id: 'webhooks-off', role: 'alert' },
          t('admin.webhooksOff', {
            list: d.switched_off_webhooks
              .map((w) =>
                t('admin.webhookOffItem', {
                  url: w.url,
                  time: formatTime(w.disabled_at),
                }),
              )
              .join(t('account.listSeparator')),
          }),
        ),
      );
    }
    box.append(
      h(
        'div',
        { class: 'figures' },
        figure(t('admin.usersTotal'), d.users_total, 'fig-users'),
        figure(t('admin.activeApps'), d.active_apps, 'fig-apps'),
        figure(t('admin.failed30'), total(d.failed_sign_ins), 'fig-failed'),
        figure(t('admin.rateLimited'), d.rate_limited_since_start, 'fig-429'),
      ),
      h(
        'div',
        { class: 'charts' },
        chart(t('admin.newUsersDaily'), d.new_users, 'chart-new-users'),
        chart(t('admin.signInsDaily'), d.sign_ins, 'chart-sign-ins'),
        chart(t('admin.failedDaily'), d.failed_sign_ins, 'chart-failed'),
      ),
    );
  } catch (err) {
    msg.error(messageOf(err));
  }
  return box;
}

export { userDetailView } from './admin-user-detail.js';
export { appsView } from './admin-apps.js';
export { auditView } from './admin-audit.js';
