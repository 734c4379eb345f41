/** The administration views beside user search: dashboard, user detail, applications, audit log. */
import { ApiError, data, getToken } from '../api.js';
import type {
  AdminAppPage,
  AdminAppView,
  AuditEntryView,
  AuditPage,
  Dashboard,
  SessionView,
  UserDetail,
} from '../contracts.js';
import { barChart } from '../chart.js';
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
import { sessionOrigin } from './account-settings.js';
import {
  auditActionLabel,
  auditActorLabel,
  detailLines,
  roleLabel,
} from '../audit-labels.js';
import { userLinksView } from './admin-user-links.js';
import { adminSignInsView } from './sign-in-history.js';
import { adminScopesCell } from './admin-app-scopes.js';
import { t } from '../i18n.js';

type Notice = ReturnType<typeof notice>;

/** A ban as the console states it: its reason, if one was given, and its end. */
function banTerms(u: {
  ban_reason?: string | null;
  banned_until?: number | null;
}): string {
  const reason = u.ban_reason
    ? t('admin.banReasonAside', { reason: u.ban_reason })
    : '';
  const until =
    u.banned_until === null || u.banned_until === undefined
      ? t('admin.banForever')
      : t('admin.banUntil', { time: formatTime(u.banned_until) });
  return t('admin.bannedTerms', { reason, until });
}
const VIEWS: Array<[string, string]> = [
  ['dashboard', t('admin.overview')],
  ['', t('admin.usersTab')],
  ['apps', t('admin.apps')],
  ['providers', t('admin.providers')],
  ['invites', t('admin.invites')],
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

function sessionRows(
  sessions: SessionView[],
  end: (s: SessionView, b: HTMLButtonElement) => void,
): HTMLElement {
  if (!sessions.length)
    return h('p', { class: 'muted small' }, t('admin.noSessions'));
  return h(
    'ul',
    { class: 'plain sessions', id: 'user-sessions' },
    ...sessions.map((s) => {
      const b = h(
        'button',
        { type: 'button', class: 'danger small-button', 'data-session': s.id },
        t('admin.end'),
      );
      b.addEventListener('click', () => end(s, b));
      return h(
        'li',
        { class: 'session', 'data-kind': s.kind },
        h(
          'div',
          { class: 'session-main' },
          h('strong', {}, s.app_name),
          h(
            'div',
            { class: 'muted small' },
            t('admin.sessionLine', {
              origin: sessionOrigin(s),
              signedIn: formatTime(s.created_at),
              used: formatTime(s.last_used_at),
            }),
          ),
        ),
        b,
      );
    }),
  );
}

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

function auditTable(entries: AuditEntryView[]): HTMLElement {
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

export async function userDetailView(
  username: string,
  msg: Notice,
): Promise<HTMLElement> {
  const box = h('div', { id: 'user-detail' });
  const load = async () => {
    try {
      const d = await data<UserDetail>(
        'GET',
        `admin/users/detail?username=${encodeURIComponent(username)}`,
      );
      const u = d.user;
      const reset = h(
        'button',
        { type: 'button', class: 'danger', id: 'force-reset' },
        t('admin.forceReset'),
      );
      reset.addEventListener(
        'click',
        () =>
          void busy(reset, async () => {
            if (
              !confirm(t('admin.forceResetConfirm', { username: u.username }))
            )
              return;
            await data('POST', 'admin/users/force_reset', {
              username: u.username,
            }).then(
              () => {
                msg.ok(t('admin.forceResetDone'));
                return load();
              },
              (e: unknown) => msg.error(messageOf(e)),
            );
          }),
      );
      // Offered only when there is something to remove: the authenticator on, or a passkey.
      const factor = u.second_factor;
      const has = [
        factor.totp ? t('admin.secondFactorTotp') : '',
        factor.passkeys
          ? t('admin.secondFactorPasskeys', { n: factor.passkeys })
          : '',
      ].filter(Boolean);
      const unlock = h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          id: 'remove-second-factor',
          'data-action': 'remove-second-factor',
        },
        t('admin.removeSecondFactor'),
      );
      unlock.addEventListener(
        'click',
        () =>
          void busy(unlock, async () => {
            if (
              !confirm(
                t('admin.removeSecondFactorConfirm', { username: u.username }),
              )
            )
              return;
            await data('POST', 'admin/users/second_factor/remove', {
              username: u.username,
            }).then(
              () => {
                msg.ok(
                  t('admin.secondFactorRemoved', { username: u.username }),
                );
                return load();
              },
              (e: unknown) => msg.error(messageOf(e)),
            );
          }),
      );
      const end = (s: SessionView, b: HTMLButtonElement) =>
        void busy(b, async () => {
          await data('POST', 'admin/users/sessions/end', {
            username: u.username,
            id: s.id,
          }).then(
            () => {
              msg.ok(t('admin.sessionEnded'));
              return load();
            },
            (e: unknown) => msg.error(messageOf(e)),
          );
        });
      const row = (k: string, v: Node | string) =>
        h('div', { class: 'row' }, h('dt', {}, k), h('dd', {}, v));
      box.replaceChildren(
        h(
          'dl',
          { class: 'profile' },
          row(t('label.username'), u.username),
          row(t('label.display_name'), u.display_name),
          row(
            t('label.email'),
            `${u.email}${u.email_verified ? t('admin.verifiedAside') : t('admin.unverifiedAside')}`,
          ),
          row(
            t('label.roles'),
            u.roles.map(roleLabel).join(t('account.listSeparator')) ||
              t('account.none'),
          ),
          row(t('admin.status'), u.banned ? banTerms(u) : t('admin.active')),
          row(t('admin.registered'), formatTime(u.created_at)),
          row(
            t('second.title'),
            h(
              'span',
              { id: 'user-second-factor' },
              has.length
                ? has.join(t('account.listSeparator'))
                : t('account.none'),
            ),
          ),
        ),
        h('div', { class: 'actions' }, reset, has.length ? unlock : null),
        h('h2', {}, t('admin.sessionsCount', { n: d.sessions.length })),
        sessionRows(d.sessions, end),
        await adminSignInsView(u.username),
        await userLinksView(u.username, msg),
        h('h2', {}, t('admin.appsCount', { n: d.apps.length })),
        d.apps.length
          ? h(
              'ul',
              {},
              ...d.apps.map((a) =>
                h(
                  'li',
                  {},
                  h(
                    'a',
                    {
                      href: `/admin?view=apps&q=${encodeURIComponent(a.client_id)}`,
                    },
                    a.display_name,
                  ),
                  t('admin.appLine', {
                    clientId: a.client_id,
                    state:
                      a.status === 'active'
                        ? t('console.enabled')
                        : t('console.disabled'),
                  }),
                ),
              ),
            )
          : h('p', { class: 'muted small' }, t('account.none')),
        h('h2', {}, t('admin.recentAudit')),
        auditTable(d.audit),
      );
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  await load();
  return box;
}

function appRow(a: AdminAppView, msg: Notice): HTMLElement {
  const active = a.status === 'active';
  const reason = input('reason', {
    placeholder: active ? t('admin.disableReason') : t('admin.enableReason'),
    'aria-label': t('admin.reasonFor', { clientId: a.client_id }),
  });
  const toggle = h(
    'button',
    {
      type: 'button',
      class: active ? 'danger' : 'secondary',
      'data-action': 'status',
    },
    active ? t('console.disable') : t('console.enable'),
  );
  toggle.addEventListener(
    'click',
    () =>
      void busy(toggle, async () => {
        try {
          const updated = await data<AdminAppView>(
            'POST',
            'admin/apps/status',
            { client_id: a.client_id, enabled: !active, reason: reason.value },
          );
          tr.replaceWith(appRow(updated, msg));
          msg.ok(
            t('admin.appToggled', {
              app: updated.display_name,
              state:
                updated.status === 'active'
                  ? t('console.enabled')
                  : t('console.disabled'),
            }),
          );
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  const tr = h(
    'tr',
    { 'data-client-id': a.client_id },
    h(
      'td',
      { 'data-label': t('admin.apps') },
      h('strong', {}, a.display_name),
      h('div', { class: 'muted small break' }, a.client_id),
    ),
    h(
      'td',
      { 'data-label': t('admin.owner') },
      h(
        'a',
        { href: `/admin?view=user&username=${encodeURIComponent(a.owner)}` },
        a.owner,
      ),
    ),
    h(
      'td',
      { 'data-label': t('console.type') },
      a.client_type === 'public' ? t('admin.public') : t('admin.confidential'),
    ),
    h(
      'td',
      { 'data-label': t('admin.status') },
      h(
        'span',
        { class: active ? 'badge ok' : 'badge warn', 'data-status': a.status },
        active ? t('console.enabled') : t('console.disabled'),
      ),
      a.status_reason
        ? h('div', { class: 'muted small' }, a.status_reason)
        : null,
    ),
    // Only a client_credentials token can carry admin scopes; one granted before the grant was dropped can still be revoked.
    h(
      'td',
      { 'data-label': t('admin.adminScopes') },
      a.grant_types.includes('client_credentials') || a.admin_scopes.length
        ? adminScopesCell(a, msg, (updated) =>
            tr.replaceWith(appRow(updated, msg)),
          )
        : h(
            'span',
            { class: 'muted small', 'data-admin-scopes-off': '' },
            t('admin.adminScopesNeedGrant'),
          ),
    ),
    h(
      'td',
      { 'data-label': t('admin.actions') },
      h('div', { class: 'inline tight' }, reason, toggle),
    ),
  );
  return tr;
}

export function appsView(msg: Notice, initial: string): HTMLElement {
  const q = input('q', {
    type: 'search',
    placeholder: t('admin.appSearch'),
    'aria-label': t('admin.searchApps'),
    value: initial,
  });
  const search = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('admin.search'),
  );
  const tbody = h('tbody', {});
  const info = h('p', { class: 'muted small' });
  // A slow answer to an earlier search must not replace the rows of a later one (and the reason typed into them).
  let latest = 0;
  const load = async () => {
    const asked = ++latest;
    const query = q.value.trim();
    try {
      const res = await data<AdminAppPage>(
        'GET',
        `admin/apps?q=${encodeURIComponent(query)}`,
      );
      if (asked !== latest) return;
      tbody.dataset.query = query;
      tbody.replaceChildren(
        ...(res.apps.length
          ? res.apps.map((a) => appRow(a, msg))
          : [
              h(
                'tr',
                {},
                h('td', { colspan: '6', class: 'muted' }, t('admin.noApps')),
              ),
            ]),
      );
      info.textContent = t('admin.appTotal', {
        total: res.total,
        shown:
          res.total > res.apps.length
            ? t('admin.appShown', { n: res.apps.length })
            : '',
      });
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  void load();
  return h(
    'div',
    { id: 'admin-apps' },
    form([h('div', { class: 'inline' }, q, search)], search, load, (e) =>
      msg.error(messageOf(e)),
    ),
    info,
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'users' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...[
              t('admin.apps'),
              t('admin.owner'),
              t('console.type'),
              t('admin.status'),
              t('admin.adminScopes'),
              t('admin.actions'),
            ].map((label) => h('th', {}, label)),
          ),
        ),
        tbody,
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
      const pages = Math.max(1, Math.ceil(res.total / 50));
      const prev = h(
        'button',
        { type: 'button', class: 'secondary', disabled: page <= 1 },
        t('admin.prev'),
      );
      const next = h(
        'button',
        { type: 'button', class: 'secondary', disabled: page >= pages },
        t('admin.next'),
      );
      prev.addEventListener('click', () => {
        page -= 1;
        void load();
      });
      next.addEventListener('click', () => {
        page += 1;
        void load();
      });
      pager.replaceChildren(
        prev,
        h(
          'span',
          { class: 'muted small', id: 'audit-total' },
          t('admin.auditPage', { page, pages, total: res.total }),
        ),
        next,
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
