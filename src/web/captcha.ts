/**
 * The CAPTCHA of a form (docs/abuse.md): when the server runs CAPTCHA=altcha, an ALTCHA
 * widget that solves its proof of work in a worker while the person fills the form. Each
 * solution is good for one request; after one is used the widget solves a fresh challenge.
 * Nothing is shown, loaded or sent when the server does not ask for a CAPTCHA.
 */
import { t } from './i18n.js';
import { h } from './dom.js';

/** The part of the altcha-widget element the pages use. */
interface AltchaElement extends HTMLElement {
  reset(): void;
  verify(): Promise<void>;
}

type StateChange = CustomEvent<{ state: string; payload?: string }>;

const STRINGS = {
  label: t('captcha.label'),
  verified: t('captcha.verified'),
  verifying: t('captcha.verifying'),
  waitAlert: t('captcha.waitAlert'),
  error: t('captcha.error'),
  expired: t('captcha.expired'),
  footer: '',
  ariaLinkLabel: '',
  verificationRequired: t('captcha.required'),
};

let loading: Promise<void> | undefined;
const FETCH_NAME = 'accountCenterChallengeFetch';

/** Loads the widget's script and style (their addresses come from the page) once per page. */
function loadWidget(script: string, style: string): Promise<void> {
  loading ??= (async () => {
    document.head.append(h('link', { rel: 'stylesheet', href: style }));
    await import(script);
  })();
  return loading;
}

/** The API answers `{ ok, data }`; the widget wants the challenge itself. */
async function challengeFetch(
  url: string,
  init?: RequestInit,
): Promise<Response> {
  const res = await fetch(url, init);
  const body = (await res.json()) as { data?: unknown };
  return new Response(JSON.stringify(body.data ?? {}), {
    status: res.status,
    headers: { 'content-type': 'application/json' },
  });
}

export class CaptchaBox {
  /** Where the widget goes in the form; hidden until it is needed. */
  readonly el = h('div', { class: 'field captcha' });
  private widget: AltchaElement | undefined;
  private solved: string | undefined;
  private state = 'unverified';
  private waiting: Array<{
    resolve: (payload: string) => void;
    reject: (err: Error) => void;
  }> = [];
  private readonly config = document.body.dataset;

  constructor() {
    this.el.hidden = true;
  }

  /** Whether the server asks for a CAPTCHA on this page's requests. */
  get enabled(): boolean {
    return (
      this.config.captcha === 'altcha' &&
      !!this.config.captchaScript &&
      !!this.config.captchaStyle
    );
  }

  /** Shows the widget and starts solving; nothing when the server asks for no CAPTCHA. */
  async start(): Promise<void> {
    if (!this.enabled || this.widget) return;
    this.el.hidden = false;
    await loadWidget(this.config.captchaScript!, this.config.captchaStyle!);
    const widget = document.createElement('altcha-widget') as AltchaElement;
    widget.setAttribute('challengeurl', '/api/v1/auth/captcha');
    // The widget looks a `customfetch` given by name up on window; its methods exist only once it is mounted.
    (window as unknown as Record<string, unknown>)[FETCH_NAME] = challengeFetch;
    widget.setAttribute('customfetch', FETCH_NAME);
    widget.setAttribute('auto', 'onload');
    if (this.config.captchaWorker)
      widget.setAttribute('workerurl', this.config.captchaWorker);
    widget.setAttribute('hidelogo', '');
    widget.setAttribute('hidefooter', '');
    widget.setAttribute('strings', JSON.stringify(STRINGS));
    widget.addEventListener('statechange', (ev) =>
      this.changed(ev as StateChange),
    );
    this.el.append(widget);
    this.widget = widget;
  }

  private changed(ev: StateChange): void {
    const { state, payload } = ev.detail;
    this.state = state;
    if (state === 'verified' && payload) {
      this.solved = payload;
      for (const w of this.waiting.splice(0)) w.resolve(payload);
    } else if (state === 'error') {
      for (const w of this.waiting.splice(0))
        w.reject(new Error(STRINGS.error));
    }
  }

  /** The solution for the next request, waiting for the widget when it is still solving; undefined when none is asked for. */
  async solution(): Promise<string | undefined> {
    if (!this.enabled) return undefined;
    await this.start();
    if (this.solved !== undefined) return this.solved;
    // Failed or expired: try again rather than wait for a click.
    if (
      this.state === 'error' ||
      this.state === 'expired' ||
      this.state === 'unverified'
    )
      void this.widget?.verify();
    return new Promise((resolve, reject) =>
      this.waiting.push({ resolve, reject }),
    );
  }

  /** The solution went with a request (the server used it up): solve a fresh challenge for the next one. */
  used(): void {
    if (!this.widget || this.solved === undefined) return;
    this.solved = undefined;
    this.widget.reset();
    void this.widget.verify();
  }
}

/** The server's answer that a CAPTCHA is needed (docs/api.md §16.1). */
export const CAPTCHA_NEEDED = '请完成人机验证';

/** Runs `request` with a fresh solution (when the server asks for one) and marks it used. */
export async function withCaptcha<T>(
  box: CaptchaBox | undefined,
  request: (captcha: string | undefined) => Promise<T>,
): Promise<T> {
  const captcha = box ? await box.solution() : undefined;
  try {
    return await request(captcha);
  } finally {
    box?.used();
  }
}
