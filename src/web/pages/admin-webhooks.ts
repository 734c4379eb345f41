/**
 * Webhooks in the admin console (docs/webhooks.md): the endpoints, each one's recent
 * deliveries with a redeliver button, a test event, removal, and a form to add one whose
 * secret is shown once; below them, the logout tokens sent to clients.
 */
import { data } from '../api.js';
import type {
  CreatedWebhook,
  DeliveryView,
  LogoutDeliveryView,
  WebhookView,
} from '../contracts.js';
import { busy, copyBox, field, form, formatTime, h, input } from '../dom.js';
import { removeButton } from './admin-list-parts.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';
import { type Notice, deliveryTable } from './admin-deliveries.js';

async function endpointItem(
  w: WebhookView,
  msg: Notice,
  reload: () => Promise<void>,
): Promise<HTMLElement> {
  const { deliveries } = await data<{ deliveries: DeliveryView[] }>(
    'GET',
    `admin/webhooks/deliveries?id=${encodeURIComponent(w.id)}`,
  );
  const test = h(
    'button',
    { type: 'button', class: 'secondary small-button', 'data-action': 'test' },
    t('webhooks.sendTest'),
  );
  test.addEventListener(
    'click',
    () =>
      void busy(test, async () => {
        await data('POST', 'admin/webhooks/test', { id: w.id }).then(
          () => {
            msg.ok(t('webhooks.testQueued'));
            return reload();
          },
          (e: unknown) => msg.error(messageOf(e)),
        );
      }),
  );
  const remove = removeButton(
    t('webhooks.remove'),
    t('webhooks.removeConfirm', { url: w.url }),
    { path: 'admin/webhooks/remove', id: w.id, msg, reload, action: 'remove' },
  );
  // Switching on again is how an endpoint switched off for failing comes back; the dashboard's notice goes with it.
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'secondary small-button',
      'data-action': w.enabled ? 'disable' : 'enable',
    },
    w.enabled ? t('admin.webhookDisable') : t('admin.webhookEnable'),
  );
  toggle.addEventListener(
    'click',
    () =>
      void busy(toggle, async () => {
        await data('POST', 'admin/webhooks/update', {
          id: w.id,
          enabled: !w.enabled,
        }).then(reload, (e: unknown) => msg.error(messageOf(e)));
      }),
  );
  const state = w.enabled
    ? w.failing_since === null
      ? t('webhooks.healthy')
      : t('webhooks.failingSince', { at: formatTime(w.failing_since) })
    : w.disabled_at === null
      ? t('webhooks.disabled')
      : t('webhooks.disabledAfterFailures', { at: formatTime(w.disabled_at) });
  return h(
    'li',
    { class: 'webhook', 'data-webhook': w.id },
    h(
      'div',
      { class: 'inline tight wrap' },
      h('strong', { class: 'break' }, w.url),
      h(
        'span',
        {
          class:
            w.enabled && w.failing_since === null ? 'badge ok' : 'badge warn',
        },
        state,
      ),
    ),
    h(
      'div',
      { class: 'muted small' },
      t('webhooks.eventsLine', {
        description: w.description || t('webhooks.noDescription'),
        events: w.events.length
          ? w.events.join(t('webhooks.eventSeparator'))
          : t('webhooks.allEvents'),
      }),
    ),
    h('div', { class: 'actions' }, test, toggle, remove),
    deliveryTable(
      { 'data-endpoint': w.id },
      deliveries,
      [t('webhooks.col.event'), (d) => h('td', {}, d.event)],
      t('webhooks.noDeliveries'),
      msg,
      reload,
    ),
  );
}

function addForm(
  msg: Notice,
  reload: () => Promise<void>,
  shown: HTMLElement,
): HTMLElement {
  const url = input('url', {
    type: 'url',
    required: true,
    placeholder: 'https://forum.example.com/hooks/center',
  });
  const description = input('description', {});
  const events = input('events', {
    placeholder: t('webhooks.eventsPlaceholder'),
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('webhooks.add'),
  );
  return form(
    [
      field(t('webhooks.url'), url),
      field(t('webhooks.description'), description),
      field(t('webhooks.events'), events),
      submit,
    ],
    submit,
    async () => {
      const body = {
        url: url.value,
        description: description.value,
        events: events.value.split(/[\s,，]+/).filter(Boolean),
      };
      const created = await data<CreatedWebhook>(
        'POST',
        'admin/webhooks',
        body,
      );
      shown.replaceChildren(
        h('p', { class: 'notice success' }, t('webhooks.secretOnce')),
        copyBox(created.secret, t('webhooks.secret')),
      );
      await reload();
    },
    (e: unknown) => msg.error(messageOf(e)),
  );
}

/** Logout tokens sent to clients' back-channel addresses (OpenID Connect Back-Channel Logout). */
async function logoutDeliveries(
  msg: Notice,
  reload: () => Promise<void>,
): Promise<HTMLElement> {
  const { deliveries } = await data<{ deliveries: LogoutDeliveryView[] }>(
    'GET',
    'admin/webhooks/logout_deliveries',
  );
  const client = (d: LogoutDeliveryView) =>
    h(
      'td',
      { title: d.url },
      h('div', {}, d.client_id),
      h(
        'div',
        { class: 'muted small' },
        t('webhooks.logoutSub', { sub: d.sub }),
      ),
    );
  return deliveryTable(
    { id: 'logout-deliveries' },
    deliveries,
    [t('webhooks.col.client'), client],
    t('webhooks.noLogoutDeliveries'),
    msg,
    reload,
  );
}

export function webhooksView(msg: Notice): HTMLElement {
  const list = h('ul', { class: 'plain webhooks', id: 'webhooks' });
  const logouts = h('div', {});
  const shown = h('div', { id: 'webhook-created' });
  const reload = async () => {
    const [{ webhooks }, sent] = await Promise.all([
      data<{ webhooks: WebhookView[] }>('GET', 'admin/webhooks'),
      logoutDeliveries(msg, reload),
    ]);
    list.replaceChildren(
      ...(webhooks.length
        ? await Promise.all(webhooks.map((w) => endpointItem(w, msg, reload)))
        : [h('li', { class: 'muted' }, t('webhooks.none'))]),
    );
    logouts.replaceChildren(sent);
  };
  void reload().catch((e: unknown) => msg.error(messageOf(e)));
  return h(
    'div',
    { id: 'webhooks-view' },
    h('p', { class: 'muted small' }, t('webhooks.intro')),
    list,
    h('h2', {}, t('webhooks.add')),
    shown,
    addForm(msg, reload, shown),
    h('h2', {}, t('webhooks.logoutTitle')),
    h('p', { class: 'muted small' }, t('webhooks.logoutIntro')),
    logouts,
  );
}
