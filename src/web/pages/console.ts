import { currentUser, data, loginUrl, type Me } from '../api.js';
import {
  busy,
  copyLine,
  field,
  form,
  formatTime,
  h,
  input,
  notice,
} from '../dom.js';
import { messageOf, needsLogin, render } from '../layout.js';
import { siteName } from '../site.js';
import { required, showFieldErrors } from '../field-errors.js';
import { APP_LABELS } from '../field-labels.js';
import type {
  AppSecret,
  AppSuspension,
  AppView,
  CreatedApp,
} from '../contracts.js';
import { clientFields, issuerPanel } from './console-oidc.js';
import { t } from '../i18n.js';

const lines = (text: string) =>
  text
    .split(/[\r\n]+/)
    .map((s) => s.trim())
    .filter(Boolean);
const words = (text: string) =>
  text
    .split(/[\s,，]+/)
    .map((s) => s.trim())
    .filter(Boolean);
const report = (msg: ReturnType<typeof notice>) => (err: unknown) => {
  if (needsLogin(err)) return location.replace(loginUrl());
  msg.error(messageOf(err, APP_LABELS));
};
/** An app needs a name: said next to the field before anything is sent. */
const named = (f: ReturnType<typeof profileFields>) =>
  showFieldErrors([
    [f.displayName, required(f.displayName, t('label.appName'))],
  ]);

function textarea(
  name: string,
  value: string,
  placeholder: string,
): HTMLTextAreaElement {
  const box = h('textarea', { name, rows: '3', placeholder });
  box.value = value;
  return box;
}

/** The secret box, shown once after creation or rotation. */
function secretNotice(clientId: string, secret: string): HTMLElement {
  return h(
    'div',
    { class: 'secret-once', id: 'new-secret' },
    h(
      'p',
      {},
      h('strong', {}, t('console.secretOf', { app: clientId })),
      t('console.secretOnce'),
    ),
    copyLine(secret, 'client_secret'),
  );
}

function profileFields(app?: AppView) {
  return {
    displayName: input('display_name', {
      required: true,
      maxlength: '64',
      value: app?.display_name ?? '',
    }),
    homepage: input('homepage', {
      type: 'url',
      placeholder: 'https://example.com',
      value: app?.homepage ?? '',
    }),
    redirects: textarea(
      'redirect_uris',
      (app?.redirect_uris ?? []).join('\n'),
      t('console.redirectsHint'),
    ),
    origins: textarea(
      'cors_origins',
      (app?.cors_origins ?? []).join('\n'),
      t('console.originsHint'),
    ),
    scopes: input('scopes', {
      placeholder: t('console.scopesHint'),
      value: (app?.scopes ?? []).join(' '),
    }),
  };
}

function createForm(onCreated: (app: CreatedApp) => void): HTMLElement {
  const msg = notice();
  const f = profileFields();
  const clientId = input('client_id', {
    placeholder: t('console.clientIdPlaceholder'),
    maxlength: '64',
  });
  const type = h(
    'select',
    { name: 'client_type' },
    h('option', { value: 'confidential' }, t('console.confidential')),
    h('option', { value: 'public' }, t('console.public')),
  );
  const oidc = clientFields(undefined, 'confidential');
  type.addEventListener('change', () => oidc.setClientType(type.value));
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('console.create'),
  );
  const el = form(
    [
      field(t('label.appName'), f.displayName),
      field(t('console.clientIdOptional'), clientId, t('console.clientIdHint')),
      field(t('label.client_type'), type, t('console.typeHint')),
      field(t('label.homepage'), f.homepage),
      field(t('label.redirect_uris'), f.redirects),
      field(t('label.cors_origins'), f.origins),
      field(t('label.scopes'), f.scopes),
      ...oidc.nodes,
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      if (!named(f)) return;
      const body: Record<string, unknown> = {
        display_name: f.displayName.value.trim(),
        redirect_uris: lines(f.redirects.value),
        client_type: type.value,
        cors_origins: lines(f.origins.value),
        scopes: words(f.scopes.value),
        ...oidc.values(),
      };
      if (f.homepage.value.trim()) body.homepage = f.homepage.value.trim();
      if (clientId.value.trim()) body.client_id = clientId.value.trim();
      onCreated(await data('POST', 'apps', body));
      el.reset();
      oidc.setClientType(type.value);
    },
    report(msg),
  );
  return h(
    'details',
    { class: 'create', id: 'create-app' },
    h('summary', {}, t('console.createNew')),
    msg.el,
    el,
  );
}

function editForm(app: AppView, onSaved: () => void): HTMLElement {
  const msg = notice();
  const f = profileFields(app);
  const oidc = clientFields(app, app.client_type);
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('console.save'),
  );
  const el = form(
    [
      field(t('label.appName'), f.displayName),
      field(t('label.homepage'), f.homepage),
      field(t('label.redirect_uris'), f.redirects),
      field(t('label.cors_origins'), f.origins),
      field(t('label.scopes'), f.scopes),
      ...oidc.nodes,
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      if (!named(f)) return;
      await data('POST', 'apps/update', {
        client_id: app.client_id,
        display_name: f.displayName.value.trim(),
        homepage: f.homepage.value.trim(),
        redirect_uris: lines(f.redirects.value),
        cors_origins: lines(f.origins.value),
        scopes: words(f.scopes.value),
        ...oidc.values(),
      });
      onSaved();
    },
    report(msg),
  );
  return h(
    'details',
    { class: 'edit' },
    h('summary', {}, t('console.edit')),
    msg.el,
    el,
  );
}

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
