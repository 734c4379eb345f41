/** One user's page for administrators: profile, roles, ban, sessions, apps, sign-ins and audit trail. */
import { data } from '../api.js';
import type { SessionView, UserDetail } from '../contracts.js';
import { busy, formatTime, h, type notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { sessionOrigin } from './account-settings.js';
import { roleLabel } from '../audit-labels.js';
import { userLinksView } from './admin-user-links.js';
import { adminSignInsView } from './sign-in-history.js';
import { t } from '../i18n.js';
import { auditTable } from './admin-audit.js';

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
