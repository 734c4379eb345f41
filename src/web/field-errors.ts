/** Errors shown next to the field they concern, all at once, each gone once its field is edited. */
import { h } from './dom.js';
import { t } from './i18n.js';

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function errorLine(control: Control): HTMLElement {
  const id = `err-${control.name}`;
  const box = control.closest('.field') ?? control.parentElement!;
  let line = box.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
  if (!line) {
    line = h('small', { class: 'field-error', id, role: 'alert' });
    box.append(line);
    control.setAttribute('aria-describedby', id);
    // Editing the field answers the complaint about it: the stale text goes at once.
    control.addEventListener('input', () => setFieldError(control, undefined));
  }
  return line;
}

/** Shows `msg` under `control` (or removes its error when `msg` is undefined). */
export function setFieldError(control: Control, msg: string | undefined): void {
  const line = errorLine(control);
  line.textContent = msg ?? '';
  line.hidden = msg === undefined;
  if (msg === undefined) control.removeAttribute('aria-invalid');
  else control.setAttribute('aria-invalid', 'true');
}

/**
 * Shows every failed check next to its field and clears the others; true when none failed.
 * The first field in error gets the focus, so a keyboard user lands where the fix is.
 */
export function showFieldErrors(
  checks: Array<[Control, string | undefined]>,
): boolean {
  for (const [control, msg] of checks) setFieldError(control, msg);
  const first = checks.find(([, msg]) => msg !== undefined);
  first?.[0].focus();
  return first === undefined;
}

/** The text for a required field left empty. */
export const required = (
  control: Control,
  label: string,
): string | undefined =>
  control.value.trim() === '' ? t('field.required', { label }) : undefined;
