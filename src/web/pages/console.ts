import { currentUser, data, loginUrl, type Me } from '../api.js';
import { busy, formatTime, h, notice } from '../dom.js';
import { render } from '../layout.js';
import { siteName } from '../site.js';
import type { AppSecret, AppSuspension, AppView } from '../contracts.js';
import { issuerPanel } from './console-oidc.js';
import { t } from '../i18n.js';

import { createForm, editForm, report, secretNotice } from './console-forms.js';

/** The app's homepage as a link; only http(s) addresses are ever made clickable. */
function homepageLink(homepage: string | null | undefined): Node | string {
  if (!homepage) return t('console.none');
  let url: URL;
  try {
    url = new URL(homepage);
  } catch {
    return homepage;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return homepage;
  // A developer's site opens apart from this one: no window.opener, no referrer.
  return h(
    'a',
    {
      href: url.href,
      target: '_blank',
      rel: 'noopener noreferrer',
      class: 'break homepage',
    },
    homepage,
  );
}

function appCard(
  app: AppView,
  refresh: (secretFor?: [string, string]) => void,
): HTMLElement {
  const msg = notice();
  const active = app.status === 'active';
  const toggle = h(
    'button',
    {
      type: 'button',
      class: active ? 'danger' : 'secondary',
      'data-action': 'toggle',
    },
    active ? t('console.disable') : t('console.enable'),
  );
  toggle.addEventListener(
    'click',
    () =>
      void busy(toggle, async () => {
        await data('POST', 'apps/disable', {
          client_id: app.client_id,
          enabled: !active,
        }).then(() => refresh(), report(msg));
      }),
  );
  const actions = h('div', { class: 'actions' }, toggle);
  if (app.client_type === 'confidential') {
    const rotate = h(
      'button',
      { type: 'button', class: 'secondary', 'data-action': 'rotate' },
      t('console.rotate'),
    );
    rotate.addEventListener(
      'click',
      () =>
        void busy(rotate, async () => {
          if (!confirm(t('console.rotateConfirm', { app: app.display_name })))
            return;
          await data<AppSecret>('POST', 'apps/rotate_secret', {
            client_id: app.client_id,
          }).then((r) => refresh([r.client_id, r.client_secret]), report(msg));
        }),
    );
    actions.prepend(rotate);
  }
  const list = (items: string[]) =>
    items.length
      ? h(
          'ul',
          { class: 'plain' },
          ...items.map((u) => h('li', {}, h('code', { class: 'break' }, u))),
        )
      : h('span', { class: 'muted' }, t('console.none'));
  const row = (k: string, v: Node | string) =>
    h('div', { class: 'row' }, h('dt', {}, k), h('dd', {}, v));
  return h(
    'article',
    { class: 'app', 'data-client-id': app.client_id },
    h(
      'header',
      {},
      h('h3', {}, app.display_name),
      h(
        'span',
        {
          class: active ? 'badge ok' : 'badge warn',
          'data-status': app.status,
        },
        active ? t('console.enabled') : t('console.disabled'),
      ),
    ),
    h(
      'dl',
      { class: 'profile' },
      row('client_id', h('code', {}, app.client_id)),
      row(t('label.homepage'), homepageLink(app.homepage)),
      row(
        t('console.type'),
        app.client_type === 'public'
          ? t('console.publicPkce')
          : t('console.confidentialType', {
              secret: app.has_secret ? t('console.hasSecret') : '',
            }),
      ),
      row(t('label.redirect_uris'), list(app.redirect_uris)),
      row(t('label.cors_origins'), list(app.cors_origins)),
      row(t('label.scopes'), app.scopes.join(' ') || t('console.none')),
      row(t('label.grant_types'), app.grant_types.join(' ')),
      row(
        t('console.authMethod'),
        h('code', {}, app.token_endpoint_auth_method),
      ),
      row(t('console.postLogout'), list(app.post_logout_redirect_uris)),
      row(
        t('console.backchannel'),
        app.backchannel_logout_uri
          ? h('code', {}, app.backchannel_logout_uri)
          : t('console.none'),
      ),
      row(t('console.created'), formatTime(app.created_at)),
    ),
    msg.el,
    actions,
    editForm(app, () => refresh()),
  );
}

export async function consolePage(): Promise<void> {
  const me: Me | null = await currentUser().catch(() => null);
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  const msg = notice();
  const secretSlot = h('div', {});
  const listEl = h('div', { class: 'apps', id: 'apps' });
  const suspensions = h('div', { id: 'app-suspensions' });
  const refresh = async (secretFor?: [string, string]) => {
    secretSlot.replaceChildren(
      ...(secretFor ? [secretNotice(secretFor[0], secretFor[1])] : []),
    );
    try {
      // Apps an administrator stopped: the owner is told which, when and why.
      const { suspensions: stopped } = await data<{
        suspensions: AppSuspension[];
      }>('GET', 'account/app_suspensions');
      suspensions.replaceChildren(
        ...(stopped.length
          ? [
              h(
                'div',
                { class: 'notice warning', role: 'alert' },
                t('console.suspended'),
                h(
                  'ul',
                  {},
                  ...stopped.map((s) =>
                    h(
                      'li',
                      {},
                      t('console.suspension', {
                        app: s.display_name,
                        clientId: s.client_id,
                        time: formatTime(s.at),
                        reason: s.reason,
                      }),
                    ),
                  ),
                ),
              ),
            ]
          : []),
      );
      const { apps } = await data<{ apps: AppView[] }>('GET', 'apps');
      listEl.replaceChildren(
        ...(apps.length
          ? apps.map((a) => appCard(a, (s) => void refresh(s)))
          : [h('p', { class: 'muted' }, t('console.noApps'))]),
      );
    } catch (err) {
      report(msg)(err);
    }
  };
  const create = createForm(
    (app) =>
      void refresh(
        app.client_secret ? [app.client_id, app.client_secret] : undefined,
      ),
  );
  render(
    t('console.title'),
    [
      h('p', { class: 'muted' }, t('console.intro', { site: siteName() })),
      msg.el,
      suspensions,
      secretSlot,
      issuerPanel(),
      create,
      h('h2', {}, t('console.myApps')),
      listEl,
    ],
    { me, wide: true },
  );
  await refresh();
}
