/**
 * 邀请码 in the admin console (docs/abuse.md): the invite codes of REGISTRATION=invite, made
 * with a number of uses and an expiry, listed with what is used, and removed. A code is shown
 * once, when it is made; the list knows only its id.
 */
import { data } from '../api.js';
import type { InviteView, NewInviteView } from '../contracts.js';
import {
  copyLine,
  field,
  form,
  formatTime,
  h,
  input,
  type notice,
} from '../dom.js';
import { t } from '../i18n.js';
import { removeButton } from './admin-list-parts.js';
import { messageOf } from '../layout.js';

type Notice = ReturnType<typeof notice>;
const DAY_S = 86_400;
const when = (ms: number) => formatTime(ms / 1000);

function inviteRow(
  i: InviteView,
  msg: Notice,
  reload: () => Promise<void>,
): HTMLElement {
  const remove = removeButton(t('invites.remove'), t('invites.removeConfirm'), {
    path: 'admin/invites/remove',
    id: i.id,
    msg,
    reload,
  });
  const expired = i.expires_at !== null && i.expires_at <= Date.now();
  const left = i.uses - i.used;
  return h(
    'li',
    { class: 'invite', 'data-invite': i.id },
    h(
      'div',
      { class: 'inline tight' },
      h('code', { class: 'invite-id' }, i.id),
      h(
        'span',
        { class: left > 0 && !expired ? 'badge ok' : 'badge warn' },
        expired
          ? t('invites.expired')
          : left > 0
            ? t('invites.left', { n: left })
            : t('invites.usedUp'),
      ),
    ),
    h(
      'div',
      { class: 'muted small' },
      t('invites.usage', {
        used: i.used,
        uses: i.uses,
        by: i.created_by,
        at: when(i.created_at),
        expiry:
          i.expires_at === null
            ? t('invites.neverExpires')
            : t('invites.expiresAt', { at: when(i.expires_at) }),
      }),
    ),
    h('div', { class: 'actions' }, remove),
  );
}

export function invitesView(msg: Notice): HTMLElement {
  const list = h('ul', { class: 'plain invites', id: 'invites' });
  const made = h('div', { id: 'invite-made' });
  const uses = input('uses', {
    type: 'number',
    min: '1',
    max: '10000',
    value: '1',
    required: true,
  });
  const days = input('expires_days', {
    type: 'number',
    min: '1',
    max: '3650',
    placeholder: t('invites.blankNeverExpires'),
  });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('invites.create'),
  );
  const reload = async () => {
    const { invites } = await data<{ invites: InviteView[] }>(
      'GET',
      'admin/invites',
    );
    list.replaceChildren(
      ...(invites.length
        ? invites.map((i) => inviteRow(i, msg, reload))
        : [h('li', { class: 'muted' }, t('invites.none'))]),
    );
  };
  const create = form(
    [
      field(t('invites.uses'), uses),
      field(t('invites.days'), days, t('invites.blankNeverExpires')),
      submit,
    ],
    submit,
    async () => {
      msg.hide();
      const body: Record<string, number> = { uses: Number(uses.value) };
      if (days.value.trim()) body.expires_in = Number(days.value) * DAY_S;
      const invite = await data<NewInviteView>('POST', 'admin/invites', body);
      made.replaceChildren(
        h('p', { class: 'notice success' }, t('invites.madeOnce')),
        copyLine(invite.code, t('invites.code')),
      );
      await reload();
    },
    (e) => msg.error(messageOf(e)),
  );
  void reload().catch((e: unknown) => msg.error(messageOf(e)));
  return h(
    'div',
    { id: 'invites-view' },
    h('p', { class: 'muted small' }, t('invites.intro')),
    h('h2', {}, t('invites.create')),
    create,
    made,
    h('h2', {}, t('invites.listTitle')),
    list,
  );
}
