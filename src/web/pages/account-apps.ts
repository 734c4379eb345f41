/** The account page's game token and the applications the user authorized. */
import { call, data, loginUrl, type TokenEnvelope } from '../api.js';
import { busy, copyBox, formatTime, h, notice } from '../dom.js';
import { messageOf, needsLogin } from '../layout.js';
import type { AuthorizedApp, AuthorizedAppList } from '../contracts.js';
import { t } from '../i18n.js';

export function gameToken(): HTMLElement {
  const msg = notice();
  const out = h('div', { id: 'game-token' });
  const mint = h(
    'button',
    { type: 'button', class: 'secondary', id: 'mint-game-token' },
    t('account.mintGameToken'),
  );
  mint.addEventListener(
    'click',
    () =>
      void busy(mint, async () => {
        msg.hide();
        try {
          const env = await call<TokenEnvelope>('POST', 'game_token');
          out.replaceChildren(
            copyBox(env.access_token, t('account.gameToken')),
            h(
              'p',
              { class: 'muted small' },
              t('account.gameTokenValid', {
                days: Math.round(env.expires_in / 86400),
              }),
            ),
          );
        } catch (err) {
          if (needsLogin(err)) return location.replace(loginUrl());
          msg.error(messageOf(err));
        }
      }),
  );
  return h(
    'section',
    { id: 'game-token-section' },
    h('h2', {}, t('account.gameToken')),
    h('p', { class: 'muted small' }, t('account.gameTokenHint')),
    msg.el,
    mint,
    out,
  );
}

/** One authorized application: name, scopes, when, and the button that withdraws it. */
function authorizedRow(
  app: AuthorizedApp,
  msg: ReturnType<typeof notice>,
): HTMLElement {
  const revoke = h(
    'button',
    { type: 'button', class: 'danger small', 'data-client-id': app.client_id },
    t('account.revoke'),
  );
  const row = h(
    'li',
    { class: 'authorized-app' },
    h(
      'div',
      {},
      h('strong', { class: 'app-name' }, app.display_name || app.client_id),
      h(
        'p',
        { class: 'muted small' },
        t('account.appScopes', {
          scopes: app.scopes.join(' ') || t('account.none'),
        }),
      ),
      h(
        'p',
        { class: 'muted small' },
        t('account.appGranted', { time: formatTime(app.updated_at) }),
      ),
    ),
    revoke,
  );
  revoke.addEventListener(
    'click',
    () =>
      void busy(revoke, async () => {
        msg.hide();
        try {
          await data('POST', 'account/authorized_apps/revoke', {
            client_id: app.client_id,
          });
          row.remove();
          msg.ok(
            t('account.revoked', { app: app.display_name || app.client_id }),
          );
        } catch (err) {
          if (needsLogin(err)) return location.replace(loginUrl());
          msg.error(messageOf(err));
        }
      }),
  );
  return row;
}

/** The applications signed in with this account (OpenID Connect consents). */
export function authorizedApps(): HTMLElement {
  const msg = notice();
  const list = h('ul', { class: 'authorized-apps', id: 'authorized-apps' });
  const section = h(
    'section',
    { id: 'authorized' },
    h('h2', {}, t('account.authorizedApps')),
    msg.el,
    list,
  );
  void data<AuthorizedAppList>('GET', 'account/authorized_apps').then(
    ({ apps }) => {
      if (apps.length === 0)
        list.replaceWith(
          h(
            'p',
            { class: 'muted small', id: 'authorized-apps-empty' },
            t('account.noAuthorizedApps'),
          ),
        );
      else list.append(...apps.map((a) => authorizedRow(a, msg)));
    },
    (err) => msg.error(messageOf(err)),
  );
  return section;
}
