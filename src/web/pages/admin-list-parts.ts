/** Parts the admin console's lists share. */
import { h } from '../dom.js';
import { t, type MessageKey } from '../i18n.js';

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
