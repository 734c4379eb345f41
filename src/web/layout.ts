import { clearToken, type Me } from './api.js';
import { clear, h } from './dom.js';
import { ApiError } from './api.js';
import {
  readable,
  REAUTH_REQUIRED,
  type LabelOverrides,
} from './field-labels.js';
import { siteName } from './site.js';
import { fillNav } from './user-menu.js';
import { chooseLanguage, language, t } from './i18n.js';

export const root = (): HTMLElement =>
  document.getElementById('app') as HTMLElement;

/** Renders a page: the site header (with links when signed in) and one card of content. */
export function render(
  title: string,
  body: Node[],
  opts: { me?: Me | null; wide?: boolean } = {},
): HTMLElement {
  document.title = `${title} - ${siteName()}`;
  const app = root();
  clear(app);
  const nav = h('nav', { class: 'nav', 'aria-label': t('nav.label') });
  fillNav(nav, opts.me);
  const header = h(
    'header',
    { class: 'topbar' },
    h('a', { class: 'brand', href: '/account' }, siteName()),
    h('div', { class: 'topbar-end' }, languageSwitch(), nav),
  );
  const card = h(
    'main',
    { class: opts.wide ? 'card wide' : 'card' },
    h('h1', {}, title),
    ...body,
  );
  app.append(header, card);
  return card;
}

/** The text to show for any failure: API field names given as the page's labels, and a rate-limited one says how long to wait. */
export function messageOf(err: unknown, labels?: LabelOverrides): string {
  if (err instanceof ApiError) {
    const text = readable(err.msg, labels);
    return err.retryAfterS === undefined
      ? text
      : t('wait.around', { text, wait: waitText(err.retryAfterS) });
  }
  return t('error.unknown');
}

/** "请 N 分钟后再试", or in seconds under a minute; minutes round up so the user never comes back too early. */
export function waitText(seconds: number): string {
  return seconds < 60
    ? t('wait.seconds', { n: Math.max(1, seconds) })
    : t('wait.minutes', { n: Math.ceil(seconds / 60) });
}

/** The header's switch to the other language (English on a Chinese page, 中文 on an English one). */
function languageSwitch(): HTMLElement {
  const other = language() === 'en' ? 'zh-CN' : 'en';
  const button = h(
    'button',
    {
      type: 'button',
      class: 'lang-switch',
      id: 'lang-switch',
      lang: other,
      'aria-label': t('lang.switchLabel'),
    },
    t('lang.switch'),
  );
  button.addEventListener('click', () => chooseLanguage(other));
  return button;
}

/** A failure that means the stored token is unusable: forget it and sign in again. */
export function needsLogin(err: unknown): boolean {
  // A refused proof of a sensitive change is a 401 too, but the token is still good.
  if (
    err instanceof ApiError &&
    err.status === 401 &&
    err.msg !== REAUTH_REQUIRED
  ) {
    clearToken();
    return true;
  }
  return false;
}

/** A whole-page error (bad links, unknown applications): no way forward from here. */
export function errorPage(
  title: string,
  msg: string,
  extra: Node[] = [],
): void {
  render(title, [
    h('p', { class: 'notice error', role: 'alert' }, msg),
    ...extra,
  ]);
}
