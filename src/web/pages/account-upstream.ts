/**
 * 第三方账号 on /account (docs/api.md §14.3): the accounts linked to this one, with the name
 * and avatar the provider showed, and the buttons to link another (after re-authentication)
 * or to unlink one (never the last way in). An account without a password proves itself by
 * signing in again with a linked provider.
 */
import { data, loginUrl } from '../api.js';
import type {
  AccountLinksData,
  LinkView,
  PublicProvider,
} from '../contracts.js';
import { busy, form, formatTime, h, notice } from '../dom.js';
import { messageOf, needsLogin } from '../layout.js';
import { reauthFields } from '../reauth.js';
import { startFromAccount } from '../upstream.js';
import { t } from '../i18n.js';

type Notice = ReturnType<typeof notice>;

const fail = (msg: Notice) => (err: unknown) => {
  if (needsLogin(err)) return location.replace(loginUrl());
  msg.error(messageOf(err));
};

/** A button that unfolds the proof form of one change; the form's submit runs `act`. */
function withProof(
  label: string,
  prefix: string,
  act: (proof: { current_password?: string; otp?: string }) => Promise<void>,
  msg: Notice,
  cls = 'secondary small-button',
): HTMLElement {
  const proof = reauthFields(prefix);
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('account.confirmAction', { action: label }),
  );
  const box = form(
    [proof.el, submit],
    submit,
    async () => {
      msg.hide();
      if (!proof.check()) return;
      await act(proof.proof());
    },
    fail(msg),
  );
  box.hidden = true;
  const open = h('button', { type: 'button', class: cls }, label);
  open.addEventListener('click', () => {
    box.hidden = !box.hidden;
  });
  return h('div', { class: 'upstream-action' }, open, box);
}

function linkRow(
  link: LinkView,
  msg: Notice,
  refresh: () => Promise<void>,
): HTMLElement {
  const unlink = withProof(
    t('account.unlink'),
    `unlink_${link.provider}`,
    async (proof) => {
      await data('POST', 'account/upstream/unlink', {
        provider: link.provider,
        ...proof,
      });
      msg.ok(t('account.unlinked', { provider: link.provider_name }));
      await refresh();
    },
    msg,
    'danger small-button',
  );
  return h(
    'li',
    { class: 'upstream-link', 'data-provider': link.provider },
    link.avatar_url
      ? h('img', {
          class: 'avatar',
          src: link.avatar_url,
          alt: '',
          width: '40',
          height: '40',
          referrerpolicy: 'no-referrer',
        })
      : h('span', { class: 'avatar placeholder' }),
    h(
      'div',
      { class: 'upstream-main' },
      h('strong', {}, link.provider_name),
      ' ',
      h('span', { class: 'upstream-name' }, link.display_name),
      h(
        'div',
        { class: 'muted small' },
        `${t('account.linkedAt', { time: formatTime(link.linked_at) })}${link.last_used_at ? ` · ${t('account.lastSignIn', { time: formatTime(link.last_used_at) })}` : ''}`,
      ),
    ),
    unlink,
  );
}

function linkButton(p: PublicProvider, msg: Notice): HTMLElement {
  return withProof(
    t('account.link', { provider: p.name }),
    `link_${p.id}`,
    (proof) =>
      startFromAccount('account/upstream/link', { provider: p.id, ...proof }),
    msg,
  );
}

/** For an account without a password: a fresh sign-in with a linked provider is its proof for ten minutes. */
function reauthButtons(links: LinkView[], msg: Notice): HTMLElement {
  return h(
    'div',
    { class: 'upstream-reauth', id: 'upstream-reauth' },
    h('p', { class: 'muted small' }, t('account.noPasswordReauth')),
    h(
      'div',
      { class: 'actions' },
      ...links.map((l) => {
        const b = h(
          'button',
          { type: 'button', class: 'secondary', 'data-provider': l.provider },
          t('account.reauthWith', { provider: l.provider_name }),
        );
        b.addEventListener(
          'click',
          () =>
            void busy(b, () =>
              startFromAccount('account/upstream/reauth', {
                provider: l.provider,
              }).catch(fail(msg)),
            ),
        );
        return b;
      }),
    ),
  );
}

/** What the return from a provider tells: linked, or the owner proved themselves. */
function arrivalNotice(msg: Notice, account: AccountLinksData): void {
  const q = new URLSearchParams(location.search);
  const nameOf = (id: string | null) =>
    account.links.find((l) => l.provider === id)?.provider_name ?? id ?? '';
  if (q.get('linked'))
    msg.ok(t('account.linked', { provider: nameOf(q.get('linked')) }));
  else if (q.get('reauthenticated'))
    msg.ok(
      t('account.reauthenticated', {
        provider: nameOf(q.get('reauthenticated')),
      }),
    );
  else return;
  history.replaceState(null, '', location.pathname);
}

export function upstreamSection(): HTMLElement {
  const msg = notice();
  const body = h('div', { id: 'upstream-body' });
  const refresh = async () => {
    const account = await data<AccountLinksData>('GET', 'account/upstream');
    const linked = new Set(account.links.map((l) => l.provider));
    const available = account.providers.filter((p) => !linked.has(p.id));
    body.replaceChildren(
      account.links.length
        ? h(
            'ul',
            { class: 'plain upstream-links', id: 'upstream-links' },
            ...account.links.map((l) => linkRow(l, msg, refresh)),
          )
        : h(
            'p',
            { class: 'muted small', id: 'upstream-none' },
            t('account.noLinks'),
          ),
      !account.has_password && account.links.length
        ? reauthButtons(account.links, msg)
        : h('span', {}),
      available.length
        ? h(
            'div',
            { class: 'upstream-available' },
            ...available.map((p) => linkButton(p, msg)),
          )
        : h('span', {}),
    );
    arrivalNotice(msg, account);
  };
  void refresh().catch(fail(msg));
  return h(
    'section',
    { id: 'upstream' },
    h('h2', {}, t('account.upstream')),
    msg.el,
    body,
  );
}
