/** Small DOM helpers: elements are built with text nodes only, never from HTML strings. */
import { t } from './i18n.js';

type Child = Node | string | null | undefined | false;
type Attrs = Record<
  string,
  string | boolean | undefined | ((ev: Event) => void)
>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function')
      el.addEventListener(key.replace(/^on/, ''), value);
    else if (key === 'class') el.className = String(value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, value);
  }
  append(el, ...children);
  return el;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** A message line under a form: error (red) or success (green); empty hides it. */
export function notice(): {
  el: HTMLElement;
  error(msg: string): void;
  ok(msg: string): void;
  hide(): void;
} {
  const el = h('p', {
    class: 'notice',
    role: 'status',
    'aria-live': 'polite',
    hidden: true,
  });
  const show = (kind: string, msg: string) => {
    el.className = `notice ${kind}`;
    el.textContent = msg;
    el.hidden = false;
  };
  return {
    el,
    error: (m) => show('error', m),
    ok: (m) => show('success', m),
    hide: () => {
      el.hidden = true;
    },
  };
}

/** A labelled input; `name` doubles as the input id for the label and for tests. */
export function field(
  label: string | Node,
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  hint?: string,
): HTMLElement {
  if (!input.id) input.id = `f-${input.name}`;
  return h(
    'div',
    { class: 'field' },
    h('label', { for: input.id }, label),
    input,
    hint ? h('small', { class: 'hint' }, hint) : null,
  );
}

export function input(name: string, attrs: Attrs = {}): HTMLInputElement {
  return h('input', { name, type: 'text', ...attrs });
}

/** The input for a six-digit code (mailed, device or authenticator): digits keyboard, one-time-code autofill. */
export function sixDigitInput(
  name: string,
  attrs: Attrs = {},
): HTMLInputElement {
  return input(name, {
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    maxlength: '6',
    placeholder: t('login.sixDigits'),
    ...attrs,
  });
}

/** Runs `task` with the button disabled, so double clicks cannot submit twice. */
export async function busy<T>(
  button: HTMLButtonElement,
  task: () => Promise<T>,
): Promise<T | undefined> {
  if (button.disabled) return undefined;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    return await task();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

/** A form whose submit runs `onSubmit` (no page reload), reporting failures in `msg`. */
export function form(
  children: Child[],
  submit: HTMLButtonElement,
  onSubmit: () => Promise<void>,
  report: (e: unknown) => void,
): HTMLFormElement {
  const f = h('form', { novalidate: true }, ...children);
  f.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(submit, () => onSubmit().catch(report));
  });
  return f;
}

/** Text with a copy button; the text is also selectable for browsers without clipboard access. */
export function copyBox(value: string, label: string): HTMLElement {
  const box = h('textarea', {
    class: 'secret',
    readonly: true,
    rows: '3',
    'aria-label': label,
  });
  box.value = value;
  const button = h(
    'button',
    { type: 'button', class: 'secondary copy' },
    t('copy.copy'),
  );
  button.addEventListener('click', () => void copyText(box, value, button));
  return h('div', { class: 'copy-box' }, box, button);
}

/** A one-line value (an address, an id) in a read-only input with a copy button. */
export function copyLine(value: string, label: string): HTMLElement {
  const line = h('input', {
    type: 'text',
    class: 'secret',
    readonly: true,
    'aria-label': label,
    value,
  });
  const button = h(
    'button',
    { type: 'button', class: 'secondary copy' },
    t('copy.copy'),
  );
  button.addEventListener('click', () => void copyText(line, value, button));
  return h('div', { class: 'copy-box' }, line, button);
}

/** A 复制 button for text already shown on the page in some other form (a list). */
export function copyButton(value: string, id?: string): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'secondary copy', id },
    t('copy.copy'),
  );
  button.addEventListener('click', () => void copyText(null, value, button));
  return button;
}

/**
 * A 下载 button that saves `text` as `filename`. The file is a Blob address made on click,
 * so nothing is written into the page and the CSP needs no inline script or data: address.
 */
export function downloadButton(
  text: string,
  filename: string,
  id?: string,
): HTMLButtonElement {
  const button = h(
    'button',
    { type: 'button', class: 'secondary', id },
    t('copy.download'),
  );
  button.addEventListener('click', () => {
    const url = URL.createObjectURL(
      new Blob([text], { type: 'text/plain;charset=utf-8' }),
    );
    const link = h('a', { href: url, download: filename, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    // The browser reads the Blob after this handler returns; free it once the save has begun.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  });
  return button;
}

async function copyText(
  from: HTMLInputElement | HTMLTextAreaElement | null,
  value: string,
  button: HTMLButtonElement,
): Promise<void> {
  from?.select();
  try {
    await navigator.clipboard.writeText(value);
  } catch {
    document.execCommand('copy');
  }
  button.textContent = t('copy.copied');
  setTimeout(() => {
    button.textContent = t('copy.copy');
  }, 1500);
}

/** The code-sending button: disabled for the resend interval with a countdown. */
export function cooldown(button: HTMLButtonElement, seconds: number): void {
  const label = button.textContent ?? '';
  let left = seconds;
  button.disabled = true;
  const tick = () => {
    if (left <= 0) {
      button.disabled = false;
      button.textContent = label;
      return;
    }
    button.textContent = t('code.resendIn', { n: left });
    left -= 1;
    setTimeout(tick, 1000);
  };
  tick();
}

export function formatTime(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
