import { currentUser, data, loginUrl, type Me } from '../api.js';
import { busy, form, formatTime, h, notice } from '../dom.js';
import { messageOf, render } from '../layout.js';
import { mailedCodeRow } from './mailed-code.js';
import { signOut } from '../sign-out.js';
import { securitySections } from './account-security.js';
import {
  changeEmail,
  changePassword,
  deleteAccount,
  editName,
  sessions,
} from './account-settings.js';
import { upstreamSection } from './account-upstream.js';
import { signInHistorySection } from './sign-in-history.js';
import { t } from '../i18n.js';
import { minecraftSection } from './account-minecraft.js';
import { roleLabel } from '../audit-labels.js';
import { authorizedApps, gameToken } from './account-apps.js';

function profile(me: Me): HTMLElement {
  const row = (k: string, v: Node | string) =>
    h('div', { class: 'row' }, h('dt', {}, k), h('dd', {}, v));
  const verified = me.email_verified
    ? h(
        'span',
        { class: 'badge ok', id: 'email-status' },
        t('account.verified'),
      )
    : h(
        'span',
        { class: 'badge warn', id: 'email-status' },
        t('account.unverified'),
      );
  return h(
    'dl',
    { class: 'profile', id: 'profile' },
    row(
      t('label.username'),
      h('span', { id: 'profile-username' }, me.username),
    ),
    row(
      t('label.display_name'),
      h('span', { id: 'profile-display-name' }, me.display_name),
    ),
    row(
      t('label.email'),
      me.email === ''
        ? h(
            'span',
            { class: 'muted', id: 'profile-email' },
            t('account.notSet'),
          )
        : h(
            'span',
            {},
            h(
              'span',
              { id: 'profile-email', class: 'current-email' },
              me.email,
            ),
            ' ',
            verified,
          ),
    ),
    row(
      t('account.roles'),
      h(
        'span',
        { id: 'profile-roles' },
        me.roles.map(roleLabel).join(t('account.listSeparator')) ||
          t('account.none'),
      ),
    ),
    row(t('account.signedInUntil'), formatTime(me.exp)),
  );
}

function verifyEmail(me: Me): HTMLElement | null {
  // An account made by signing in with another account may have no address to verify.
  if (me.email_verified || me.email === '') return null;
  const msg = notice();
  // send_code asks for a CAPTCHA whenever one is on (docs/abuse.md): solved when the button is pressed.
  const { code, codeRow, box } = mailedCodeRow(
    'verify_code',
    'verify',
    () => me.email,
    msg,
  );
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('account.verifyEmail'),
  );
  const f = form(
    [box.el, codeRow, submit],
    submit,
    async () => {
      msg.hide();
      await data('POST', 'verify_email', { code: code.value.trim() });
      f.hidden = true;
      msg.ok(t('account.emailVerified'));
      const status = document.getElementById('email-status');
      if (status) {
        status.textContent = t('account.verified');
        status.className = 'badge ok';
      }
    },
    (e) => msg.error(messageOf(e)),
  );
  return h(
    'section',
    { id: 'verify-email' },
    h('h2', {}, t('account.verifyEmail')),
    h(
      'p',
      { class: 'muted small' },
      t('account.codeGoesTo'),
      h('span', { class: 'current-email' }, me.email),
    ),
    msg.el,
    f,
  );
}

function signOutSection(): HTMLElement {
  const msg = notice();
  const out = h(
    'button',
    { type: 'button', class: 'secondary', id: 'logout' },
    t('menu.signOut'),
  );
  const all = h(
    'button',
    { type: 'button', class: 'danger', id: 'logout-all' },
    t('account.signOutEverywhere'),
  );
  const leave = (everywhere: boolean) => () =>
    signOut(everywhere).catch((err: unknown) => msg.error(messageOf(err)));
  out.addEventListener('click', () => void busy(out, leave(false)));
  all.addEventListener('click', () => void busy(all, leave(true)));
  return h(
    'section',
    { id: 'sign-out' },
    h('h2', {}, t('account.signInState')),
    msg.el,
    h('div', { class: 'actions' }, out, all),
  );
}

/** Where each part of this long page starts, so nothing needs a scroll to the bottom to find. */
const SECTIONS: Array<[string, string]> = [
  ['profile', t('account.navProfile')],
  ['change-password', t('account.navSecurity')],
  ['two-factor', t('second.title')],
  ['passkeys', t('account.passkeys')],
  ['upstream', t('account.upstream')],
  ['session-list', t('account.sessions')],
  ['sign-in-history', t('account.signInHistory')],
  ['authorized', t('account.authorizedApps')],
  ['game-token-section', t('account.gameToken')],
  ['danger', t('account.deleteAccount')],
];

function pageNav(): HTMLElement {
  const links = SECTIONS.map(([id, label]) =>
    h('li', {}, h('a', { href: `#${id}` }, label)),
  );
  const nav = h(
    'nav',
    {
      class: 'page-nav',
      id: 'account-nav',
      'aria-label': t('account.onThisPage'),
    },
    h('ul', {}, ...links),
  );
  // The deletion form sits folded away; its link unfolds it as well as scrolling to it.
  nav.querySelector('a[href="#danger"]')?.addEventListener('click', () => {
    const box = document.getElementById('delete-section');
    if (box instanceof HTMLDetailsElement) box.open = true;
  });
  return nav;
}

export async function accountPage(): Promise<void> {
  let me: Me | null;
  try {
    me = await currentUser();
  } catch (err) {
    render(t('account.title'), [
      h('p', { class: 'notice error' }, messageOf(err)),
    ]);
    return;
  }
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  render(
    t('account.title'),
    [
      pageNav(),
      profile(me),
      verifyEmail(me),
      editName(me),
      changePassword(),
      changeEmail(me),
      ...securitySections(),
      upstreamSection(),
      sessions(),
      signInHistorySection(),
      authorizedApps(),
      gameToken(),
      minecraftSection(),
      signOutSection(),
      deleteAccount(me),
    ].filter((n): n is HTMLElement => n !== null),
    { me },
  );
}
