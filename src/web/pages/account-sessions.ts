/** The account page's sessions section: each signed-in browser and app, and ending them. */
import { data } from '../api.js';
import type { SessionList, SessionView } from '../contracts.js';
import { busy, formatTime, h, notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';

/** A titled section of the account page. */
export const section = (
  title: string,
  id: string,
  ...body: Array<Node | null>
) => h('section', { id }, h('h2', {}, title), ...body);

/** A short description of a user agent: enough to tell a phone from a desktop. */
export function deviceOf(ua: string): string {
  if (!ua) return t('account.unknownDevice');
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Chrome\//.test(ua)
      ? 'Chrome'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Safari\//.test(ua)
          ? 'Safari'
          : '';
  return [browser, os].filter(Boolean).join(' · ') || ua.slice(0, 40);
}

/**
 * Where a sign-in came from: device and address, or, for an OAuth refresh-token family, that
 * an application holds it (the server records no address for those).
 */
export function sessionOrigin(s: SessionView): string {
  if (s.kind === 'oauth')
    return s.ip || s.user_agent
      ? t('account.oauthFrom', { device: deviceOf(s.user_agent), ip: s.ip })
      : t('account.oauthGrant');
  return `${deviceOf(s.user_agent)} · ${s.ip}`;
}

function sessionItem(
  s: SessionView,
  end: (s: SessionView, button: HTMLButtonElement) => void,
): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: 'danger small-button', 'data-session': s.id },
    t('account.endSession'),
  );
  button.addEventListener('click', () => end(s, button));
  return h(
    'li',
    { class: 'session', 'data-session-id': s.id, 'data-kind': s.kind },
    h(
      'div',
      { class: 'session-main' },
      h('strong', {}, s.app_name),
      ' ',
      s.current
        ? h('span', { class: 'badge ok' }, t('account.thisDevice'))
        : null,
      s.kind === 'oauth'
        ? h('span', { class: 'badge' }, t('account.thirdPartyGrant'))
        : null,
      h('div', { class: 'muted small' }, sessionOrigin(s)),
      h(
        'div',
        { class: 'muted small' },
        t('account.sessionTimes', {
          signedIn: formatTime(s.created_at),
          used: formatTime(s.last_used_at),
        }),
      ),
    ),
    s.current ? null : button,
  );
}

export function sessions(): HTMLElement {
  const msg = notice();
  const list = h('ul', { class: 'plain sessions', id: 'sessions' });
  const endOthers = h(
    'button',
    { type: 'button', class: 'danger', id: 'end-other-sessions' },
    t('account.endOthers'),
  );
  const load = async () => {
    try {
      const { sessions: all } = await data<SessionList>(
        'GET',
        'account/sessions',
      );
      list.replaceChildren(...all.map((s) => sessionItem(s, endOne)));
      if (all.length === 0)
        list.append(
          h('li', { class: 'muted small' }, t('account.noOtherSessions')),
        );
    } catch (err) {
      msg.error(messageOf(err));
    }
  };
  const endOne = (s: SessionView, button: HTMLButtonElement) =>
    void busy(button, async () => {
      msg.hide();
      try {
        await data('POST', 'account/sessions/end', { id: s.id });
        msg.ok(t('account.sessionEnded', { app: s.app_name }));
        await load();
      } catch (err) {
        msg.error(messageOf(err));
      }
    });
  endOthers.addEventListener(
    'click',
    () =>
      void busy(endOthers, async () => {
        msg.hide();
        try {
          const { ended } = await data<{ ended: number }>(
            'POST',
            'account/sessions/end_others',
          );
          msg.ok(t('account.othersEnded', { n: ended }));
          await load();
        } catch (err) {
          msg.error(messageOf(err));
        }
      }),
  );
  document.addEventListener('sessions-changed', () => void load());
  void load();
  return section(
    t('account.sessions'),
    'session-list',
    h('p', { class: 'muted small' }, t('account.sessionsHint')),
    msg.el,
    list,
    h('div', { class: 'actions' }, endOthers),
  );
}
