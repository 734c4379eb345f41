/**
 * A question in a modal <dialog>: its fields, Cancel and one confirming button. Cancel, Escape
 * and a click beside the box answer null, so closing it never acts; only the confirming button
 * does, and only with fields that pass `accept`.
 */
import { h, notice } from './dom.js';
import { t } from './i18n.js';

/** Thrown by `accept` to keep the dialog open with this message under its fields. */
export class DialogRefusal extends Error {}

export interface DialogOptions<T> {
  id: string;
  title: string;
  body: Node[];
  confirmLabel: string;
  /** `danger` for a button that takes something away (a ban). */
  confirmClass?: 'primary' | 'danger';
  /** The answer from the fields, or a DialogRefusal saying what to fix. */
  accept: () => T;
}

export function askInDialog<T>(opts: DialogOptions<T>): Promise<T | null> {
  const msg = notice();
  const cancel = h(
    'button',
    { type: 'button', class: 'secondary', 'data-action': 'cancel' },
    t('dialog.cancel'),
  );
  const confirm = h(
    'button',
    {
      type: 'submit',
      class: opts.confirmClass ?? 'primary',
      'data-action': 'confirm',
    },
    opts.confirmLabel,
  );
  const titleId = `${opts.id}-title`;
  const form = h(
    'form',
    { novalidate: true },
    h('h2', { id: titleId }, opts.title),
    ...opts.body,
    msg.el,
    h('div', { class: 'actions dialog-actions' }, cancel, confirm),
  );
  const dialog = h(
    'dialog',
    { class: 'modal', id: opts.id, 'aria-labelledby': titleId },
    form,
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    let answer: T | null = null;
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(answer);
    });
    cancel.addEventListener('click', () => dialog.close());
    // A click on the backdrop lands on the <dialog> itself, outside the form.
    dialog.addEventListener('click', (ev) => {
      if (ev.target === dialog) dialog.close();
    });
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      try {
        answer = opts.accept();
      } catch (err) {
        if (!(err instanceof DialogRefusal)) throw err;
        msg.error(err.message);
        return;
      }
      dialog.close();
    });
    dialog.showModal();
  });
}
