/**
 * The header's account menu on every page: who is signed in, where to go, and 退出登录.
 * A <details> element, so it opens with Enter or Space and closes with Escape without a script
 * of its own to trap focus; the links inside are ordinary tab stops.
 */
import { ApiError, data, getToken, type Me } from './api.js';
import { busy, h } from './dom.js';
import { signOut } from './sign-out.js';
import { readable } from './field-labels.js';
import { t } from './i18n.js';

let signedIn: Promise<Me | null> | undefined;

/** Who the stored token belongs to, asked once per page load; an unusable token means nobody. */
function whoIsSignedIn(): Promise<Me | null> {
  signedIn ??= getToken()
    ? data<Me>('GET', 'me').catch(() => null)
    : Promise.resolve(null);
  return signedIn;
}

function menu(me: Me): HTMLElement {
  const failure = h('p', { class: 'menu-error', role: 'alert', hidden: true });
  const leave = h(
    'button',
    { type: 'button', class: 'menu-item', id: 'menu-logout' },
    t('menu.signOut'),
  );
  leave.addEventListener(
    'click',
    () =>
      void busy(leave, () =>
        signOut().catch((err: unknown) => {
          failure.textContent =
            err instanceof ApiError
              ? readable(err.msg)
              : t('menu.signOutFailed');
          failure.hidden = false;
        }),
      ),
  );
  const items = h(
    'div',
    { class: 'menu-items', id: 'user-menu-items' },
    h('a', { class: 'menu-item', href: '/account' }, t('menu.account')),
    h('a', { class: 'menu-item', href: '/console' }, t('menu.console')),
    me.roles.includes('admin')
      ? h('a', { class: 'menu-item', href: '/admin' }, t('menu.admin'))
      : null,
    leave,
    failure,
  );
  const details = h(
    'details',
    { class: 'user-menu', id: 'user-menu' },
    h(
      'summary',
      {
        'aria-label': t('menu.label', { name: me.display_name || me.username }),
      },
      h('span', { class: 'user-name' }, me.display_name || me.username),
    ),
    items,
  );
  details.addEventListener('keydown', (ev) => {
    if ((ev as KeyboardEvent).key !== 'Escape' || !details.open) return;
    details.open = false;
    details.querySelector('summary')?.focus();
  });
  // A click anywhere else closes it, as a menu does.
  document.addEventListener('click', (ev) => {
    if (details.open && !details.contains(ev.target as Node))
      details.open = false;
  });
  return details;
}

const guestLinks = (): Node[] => [
  h('a', { href: '/login' }, t('nav.signIn')),
  h('a', { href: '/register' }, t('nav.register')),
];

/** Fills `nav`: the menu for `me` when the page knows who it is, else whoever the token belongs to. */
export function fillNav(nav: HTMLElement, me: Me | null | undefined): void {
  if (me) {
    nav.replaceChildren(menu(me));
    return;
  }
  void whoIsSignedIn().then((user) =>
    nav.replaceChildren(...(user ? [menu(user)] : guestLinks())),
  );
}
