/** Parts the admin console's lists share. */
import { data } from '../api.js';
import { busy, h, type notice } from '../dom.js';
import { t, type MessageKey } from '../i18n.js';
import { messageOf } from '../layout.js';

/** Where a paged list stands: on `page`, with `total` rows at `pageSize` a page. */
interface PagerPlace {
  page: number;
  total: number;
  pageSize: number;
  /** The text between the buttons, given page, pages and total. */
  key: MessageKey;
  id?: string;
}

/**
 * Fills `pager` with the previous and next buttons around where the list stands; a button at
 * either end is disabled, and a press asks `step` to move one page back (-1) or on (1).
 */
export function fillPager(
  pager: HTMLElement,
  { page, total, pageSize, key, id }: PagerPlace,
  step: (by: -1 | 1) => void,
): void {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const prev = h(
    'button',
    { type: 'button', class: 'secondary', disabled: page <= 1 },
    t('admin.prev'),
  );
  const next = h(
    'button',
    { type: 'button', class: 'secondary', disabled: page >= pages },
    t('admin.next'),
  );
  prev.addEventListener('click', () => step(-1));
  next.addEventListener('click', () => step(1));
  pager.replaceChildren(
    prev,
    h('span', { class: 'muted small', id }, t(key, { page, pages, total })),
    next,
  );
}

/** What a list item's remove button removes, and the list it then shows again. */
interface Removal {
  /** The API path that takes `{ id }`. */
  path: string;
  id: string;
  msg: ReturnType<typeof notice>;
  reload: () => Promise<void>;
  /** The button's `data-action`, where the list names its buttons. */
  action?: string;
}

/**
 * A button that removes one item of a list once the admin says yes to `question`, then shows
 * the list again (or says why not).
 */
export function removeButton(
  label: string,
  question: string,
  { path, id, msg, reload, action }: Removal,
): HTMLButtonElement {
  const remove = h(
    'button',
    { type: 'button', class: 'danger small-button', 'data-action': action },
    label,
  );
  remove.addEventListener(
    'click',
    () =>
      void busy(remove, async () => {
        if (!confirm(question)) return;
        await data('POST', path, { id }).then(reload, (e: unknown) =>
          msg.error(messageOf(e)),
        );
      }),
  );
  return remove;
}
