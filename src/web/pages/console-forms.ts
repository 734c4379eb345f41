/** The forms of the developer console: a new app, an app's settings, the secret shown once. */
import { data, loginUrl } from '../api.js';
import { copyLine, field, form, h, input, notice } from '../dom.js';
import { messageOf, needsLogin } from '../layout.js';
import { required, showFieldErrors } from '../field-errors.js';
import { APP_LABELS } from '../field-labels.js';
import type { AppView, CreatedApp } from '../contracts.js';
import { clientFields } from './console-oidc.js';
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
export const report = (msg: ReturnType<typeof notice>) => (err: unknown) => {
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
export function secretNotice(clientId: string, secret: string): HTMLElement {
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

export function createForm(onCreated: (app: CreatedApp) => void): HTMLElement {
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

export function editForm(app: AppView, onSaved: () => void): HTMLElement {
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
