/** 其他账号 in the admin console's user detail (docs/upstream.md): a user's linked accounts, each removable. */
import { data } from '../api.js';
import type { AdminLinks } from '../contracts.js';
import { busy, formatTime, h, type notice } from '../dom.js';
import { messageOf } from '../layout.js';
import { t } from '../i18n.js';

type Notice = ReturnType<typeof notice>;

/** A user's linked accounts in the user detail, each removable. */
export async function userLinksView(
  username: string,
  msg: Notice,
): Promise<HTMLElement> {
  const box = h('div', { id: 'user-links' });
  const load = async () => {
    const { links } = await data<AdminLinks>(
      'GET',
      `admin/users/links?username=${encodeURIComponent(username)}`,
    );
    box.replaceChildren(
      h('h2', {}, t('providers.linksCount', { n: links.length })),
      links.length === 0
        ? h('p', { class: 'muted small' }, t('account.none'))
        : h(
            'ul',
            { class: 'plain' },
            ...links.map((l) => {
              const b = h(
                'button',
                {
                  type: 'button',
                  class: 'danger small-button',
                  'data-provider': l.provider,
                },
                t('account.unlink'),
              );
              b.addEventListener(
                'click',
                () =>
                  void busy(b, async () => {
                    if (
                      !confirm(
                        t('providers.unlinkConfirm', {
                          username,
                          provider: l.provider_name,
                        }),
                      )
                    )
                      return;
                    await data('POST', 'admin/users/links/remove', {
                      username,
                      provider: l.provider,
                    }).then(
                      () => {
                        msg.ok(t('providers.unlinked'));
                        return load();
                      },
                      (e: unknown) => msg.error(messageOf(e)),
                    );
                  }),
              );
              return h(
                'li',
                { class: 'inline tight' },
                h('strong', {}, l.provider_name),
                h('span', {}, l.display_name),
                h(
                  'span',
                  { class: 'muted small' },
                  t('account.linkedAt', { time: formatTime(l.linked_at) }),
                ),
                b,
              );
            }),
          ),
    );
  };
  await load().catch((e: unknown) => msg.error(messageOf(e)));
  return box;
}
