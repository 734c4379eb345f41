/** The OpenID Connect consent page: the request in its signed ticket, and the person's answer. */
import { ApiError, loginUrl } from '../api.js';
import { busy, h, notice } from '../dom.js';
import { errorPage, messageOf, render } from '../layout.js';
import type { ConsentResult, InteractionView } from '../contracts.js';
import { oidcPost } from '../oidc.js';
import { t } from '../i18n.js';
import { homepageNode, scopeText, title } from './consent-parts.js';

/** Where the sign-in page sends the person back to for an OpenID Connect request. */
const resumeUrl = (ticket: string) =>
  `/oauth/authorize/resume?ticket=${encodeURIComponent(ticket)}`;

/**
 * OpenID Connect mode: the authorization endpoint checked the request and put it in a
 * signed ticket; this page shows it and sends the person's answer back to the server,
 * which decides where the browser goes (the callback, or the sign-in page).
 */
export async function ticketConsent(ticket: string): Promise<void> {
  let view: InteractionView;
  try {
    view = await oidcPost<InteractionView>('/oauth/interaction', { ticket });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401)
      return location.replace(loginUrl(resumeUrl(ticket)));
    return errorPage(title(), messageOf(err));
  }
  const msg = notice();
  const agree = h(
    'button',
    { type: 'button', class: 'primary', id: 'agree' },
    t('consent.agree'),
  );
  const deny = h(
    'button',
    { type: 'button', class: 'secondary', id: 'deny' },
    t('consent.deny'),
  );
  const answer =
    (decision: 'allow' | 'deny', button: HTMLButtonElement) => () =>
      void busy(button, async () => {
        msg.hide();
        try {
          const { redirect_to } = await oidcPost<ConsentResult>(
            '/oauth/consent',
            { ticket, decision },
          );
          agree.disabled = true;
          deny.disabled = true;
          location.assign(redirect_to);
        } catch (err) {
          if (err instanceof ApiError && err.status === 401)
            return location.replace(loginUrl(resumeUrl(ticket)));
          msg.error(messageOf(err));
        }
      });
  agree.addEventListener('click', answer('allow', agree));
  deny.addEventListener('click', answer('deny', deny));
  const name = view.display_name || view.client_id;
  render(title(), [
    h(
      'div',
      { class: 'app-head' },
      h(
        'div',
        { class: 'app-icon', 'aria-hidden': 'true' },
        name.slice(0, 1).toUpperCase(),
      ),
      h(
        'div',
        {},
        h('p', { class: 'app-name', id: 'app-name' }, name),
        h(
          'p',
          { class: 'muted small' },
          homepageNode(view.homepage) ?? view.client_id,
        ),
      ),
    ),
    h('p', {}, t('consent.asks', { app: name })),
    h(
      'ul',
      { class: 'scopes' },
      ...view.scopes.map((s) =>
        h('li', {}, h('code', {}, s), ` ${scopeText(s)}`),
      ),
    ),
    h(
      'p',
      { class: 'muted small' },
      t('consent.currentAccount'),
      h(
        'strong',
        { id: 'current-user' },
        view.user.display_name || view.user.username,
      ),
      t('consent.usernameAside', { username: view.user.username }),
    ),
    msg.el,
    h('div', { class: 'actions' }, agree, deny),
    h(
      'p',
      { class: 'muted small' },
      t('consent.returnTo'),
      h('code', { class: 'break' }, view.redirect_uri),
    ),
    h(
      'p',
      { class: 'links' },
      h(
        'a',
        {
          href: `/login?switch=1&next=${encodeURIComponent(resumeUrl(ticket))}`,
          id: 'switch-account',
        },
        t('consent.switchAccount'),
      ),
    ),
  ]);
}
