/**
 * 登录记录 on /account and on a user's admin page (docs/api.md §17): the last 50 sign-ins of
 * 90 days with time, address, browser and how, and the person's switch for the e-mail about
 * a sign-in from a browser or address the account had not used.
 */
import { data, loginUrl } from '../api.js';
import type { SignInList, SignInNoticeView, SignInView } from '../contracts.js';
import { formatTime, h, notice } from '../dom.js';
import { messageOf, needsLogin } from '../layout.js';
import { deviceOf } from './account-settings.js';
import { t, type MessageKey } from '../i18n.js';

const METHODS: Readonly<Record<string, MessageKey>> = {
  password: 'signIns.method.password',
  email_code: 'signIns.method.email_code',
  passkey: 'signIns.method.passkey',
  device: 'signIns.method.device',
  oidc: 'signIns.method.oidc',
};

export function methodLabel(method: string): string {
  if (method.startsWith('upstream:'))
    return t('signIns.method.upstream', {
      provider: method.slice('upstream:'.length),
    });
  const key = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  return key ? t(key) : method;
}

/** The sign-ins as a table; the full user agent is the browser cell's title. */
export function signInTable(list: SignInView[], id: string): HTMLElement {
  if (list.length === 0)
    return h('p', { class: 'muted small', id }, t('signIns.none'));
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'users sign-ins', id },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            t('signIns.time'),
            t('signIns.method'),
            t('signIns.ip'),
            t('signIns.browser'),
          ].map((label) => h('th', {}, label)),
        ),
      ),
      h(
        'tbody',
        {},
        ...list.map((s) =>
          h(
            'tr',
            { class: 'sign-in' },
            h('td', { 'data-label': t('signIns.time') }, formatTime(s.at)),
            h(
              'td',
              { 'data-label': t('signIns.method'), class: 'sign-in-method' },
              methodLabel(s.method),
            ),
            h(
              'td',
              { 'data-label': t('signIns.ip'), class: 'sign-in-ip' },
              s.ip,
            ),
            h(
              'td',
              {
                'data-label': t('signIns.browser'),
                class: 'break small',
                title: s.user_agent,
              },
              deviceOf(s.user_agent),
            ),
          ),
        ),
      ),
    ),
  );
}

function noticeSwitch(msg: ReturnType<typeof notice>): HTMLElement {
  const box = h('input', {
    type: 'checkbox',
    id: 'f-sign_in_notice',
    name: 'sign_in_notice',
    disabled: true,
  });
  void data<SignInNoticeView>('GET', 'account/sign_in_notice').then(
    (s) => {
      box.checked = s.enabled;
      box.disabled = false;
    },
    (err) => msg.error(messageOf(err)),
  );
  box.addEventListener('change', () => {
    const wanted = box.checked;
    box.disabled = true;
    msg.hide();
    void data<SignInNoticeView>('POST', 'account/sign_in_notice', {
      enabled: wanted,
    })
      .then(
        (s) => {
          box.checked = s.enabled;
          msg.ok(t(s.enabled ? 'signIns.noticeOn' : 'signIns.noticeOff'));
        },
        (err) => {
          box.checked = !wanted;
          if (needsLogin(err)) return location.replace(loginUrl());
          msg.error(messageOf(err));
        },
      )
      .finally(() => {
        box.disabled = false;
      });
  });
  return h('label', { class: 'check' }, box, t('signIns.noticeSwitch'));
}

export function signInHistorySection(): HTMLElement {
  const msg = notice();
  const body = h('div', { id: 'sign-in-list-body' });
  void data<SignInList>('GET', 'account/sign_ins').then(
    ({ sign_ins }) => {
      body.replaceChildren(signInTable(sign_ins, 'sign-in-list'));
    },
    (err) => {
      if (needsLogin(err)) return location.replace(loginUrl());
      msg.error(messageOf(err));
    },
  );
  return h(
    'section',
    { id: 'sign-in-history' },
    h('h2', {}, t('signIns.title')),
    h('p', { class: 'muted small' }, t('signIns.hint')),
    msg.el,
    noticeSwitch(msg),
    body,
  );
}

/** For the user's admin page. */
export async function adminSignInsView(username: string): Promise<HTMLElement> {
  const { sign_ins } = await data<SignInList>(
    'GET',
    `admin/users/sign_ins?username=${encodeURIComponent(username)}`,
  );
  return h(
    'div',
    { id: 'admin-sign-ins' },
    h('h2', {}, t('signIns.adminTitle', { count: sign_ins.length })),
    signInTable(sign_ins, 'admin-sign-in-list'),
  );
}
