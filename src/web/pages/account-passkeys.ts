/** The account page's passkeys: the list, renaming and removing one, and adding another. */
import { startRegistration } from '@simplewebauthn/browser';
import { ApiError, data } from '../api.js';
import { field, form, formatTime, h, input, notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { reauthFields } from '../reauth.js';
import type { PasskeyView, SecondFactorStatus } from '../contracts.js';
import { t } from '../i18n.js';
import { atIpAddress, passkeysUnavailable } from '../passkey-host.js';

function passkeyRow(
  p: PasskeyView,
  refresh: () => Promise<void>,
  msg: ReturnType<typeof notice>,
): HTMLElement {
  const del = h(
    'button',
    { type: 'button', class: 'danger', 'data-action': 'delete-passkey' },
    t('account.delete'),
  );
  // Deleting asks for the password first, in a small form under the row.
  const proof = reauthFields('passkey_delete');
  const confirmDel = h(
    'button',
    {
      type: 'submit',
      class: 'danger',
      'data-action': 'confirm-delete-passkey',
    },
    t('account.confirmDelete'),
  );
  const confirmForm = form(
    [h('div', { class: 'inline' }, proof.el, confirmDel)],
    confirmDel,
    async () => {
      await data('POST', 'account/passkeys/delete', {
        id: p.id,
        ...proof.proof(),
      });
      await refresh();
    },
    (e) => msg.error(messageOf(e)),
  );
  confirmForm.hidden = true;
  del.addEventListener('click', () => {
    confirmForm.hidden = false;
  });
  return h(
    'li',
    { class: 'passkey', 'data-passkey': p.name },
    h('strong', {}, p.name),
    ' ',
    h(
      'span',
      { class: 'muted small' },
      t('account.passkeyUsage', {
        added: formatTime(p.created_at),
        used:
          p.last_used_at === null
            ? t('account.neverUsed')
            : t('account.lastUsed', { time: formatTime(p.last_used_at) }),
      }),
    ),
    ' ',
    del,
    confirmForm,
  );
}

export function passkeys(
  status: SecondFactorStatus,
  refresh: () => Promise<void>,
): HTMLElement[] {
  const msg = notice();
  const name = input('passkey_name', {
    maxlength: '64',
    placeholder: t('account.passkeyNamePlaceholder'),
  });
  const proof = reauthFields('passkey_add');
  const add = h(
    'button',
    { type: 'submit', class: 'secondary', id: 'passkey-add' },
    t('account.addPasskey'),
  );
  const addForm = form(
    [
      field(t('account.passkeyName'), name),
      h('div', { class: 'inline' }, proof.el, add),
    ],
    add,
    async () => {
      msg.hide();
      const optionsJSON = await data<
        Parameters<typeof startRegistration>[0]['optionsJSON']
      >('POST', 'account/passkeys/options', proof.proof());
      proof.reset();
      let response: Awaited<ReturnType<typeof startRegistration>>;
      try {
        response = await startRegistration({ optionsJSON });
      } catch {
        throw new ApiError(0, t('account.passkeyFailed'));
      }
      await data('POST', 'account/passkeys/register', {
        name: name.value.trim() || t('account.passkeyDefaultName'),
        response,
      });
      await refresh();
    },
    (e) => msg.error(messageOf(e)),
  );
  const list = status.passkeys.length
    ? h(
        'ul',
        { class: 'passkeys', id: 'passkey-list' },
        ...status.passkeys.map((p) => passkeyRow(p, refresh, msg)),
      )
    : h(
        'p',
        { class: 'muted small', id: 'passkey-list' },
        t('account.noPasskeys'),
      );
  // At an IP address the browser cannot make a passkey: the form gives way to why.
  return [
    h('p', { class: 'muted small' }, t('account.passkeyIntro')),
    msg.el,
    list,
    atIpAddress() ? passkeysUnavailable() : addForm,
  ];
}
