import type { DeviceRequest as DeviceRequestData } from '../contracts.js';
import { currentUser, data, loginUrl, type Me } from '../api.js';
import {
  busy,
  field,
  form,
  formatTime,
  h,
  notice,
  sixDigitInput,
} from '../dom.js';
import { messageOf, needsLogin, render } from '../layout.js';
import { siteName } from '../site.js';
import { t } from '../i18n.js';

interface Approved {
  client_id: string;
  display_name: string;
}

const minutesAgo = (unixSeconds: number): string => {
  const m = Math.max(0, Math.round((Date.now() / 1000 - unixSeconds) / 60));
  return m === 0 ? t('device.justNow') : t('device.minutesAgo', { n: m });
};

/**
 * Who asks, shown before the user may confirm (docs/api.md §11, RFC 8628 §5.4): the app's name and
 * id, what the device gets, when the request started, and the warning against codes that
 * someone else sent. A link with the code filled in is one way attackers start phishing.
 */
function describe(req: DeviceRequestData, me: Me): HTMLElement {
  const name = req.display_name || req.client_id;
  if (req.allowed === false) return refusal(name, me);
  const grant = req.first_party
    ? h(
        'p',
        {},
        h('strong', {}, t('device.firstParty', { site: siteName() })),
        t('device.firstPartyMore'),
      )
    : h('p', {}, t('device.grant', { username: me.username }));
  return h(
    'div',
    { class: 'device-request', id: 'device-request' },
    h('h3', {}, t('device.asks', { app: name })),
    h(
      'p',
      { class: 'small' },
      t('device.clientId'),
      h('code', { id: 'device-client-id' }, req.client_id),
    ),
    grant,
    h(
      'p',
      { class: 'small muted', id: 'device-started' },
      t('device.started', {
        time: formatTime(req.created_at),
        ago: minutesAgo(req.created_at),
      }),
    ),
    h(
      'p',
      { class: 'notice warning', id: 'device-warning' },
      t('device.warning'),
    ),
  );
}

/** The app admits only roles the person does not hold: who refused, and who grants access. */
function refusal(app: string, me: Me): HTMLElement {
  return h(
    'div',
    { class: 'device-request', id: 'device-role-refused' },
    h('h3', {}, t('device.roleRefusedTitle')),
    h(
      'p',
      { class: 'notice error', role: 'alert' },
      t('device.roleRefused', { app, username: me.username }),
    ),
    h('p', { class: 'small muted' }, t('device.roleRefusedHelp')),
  );
}

/**
 * Approve (or refuse) a device sign-in by its 6-digit code, in two steps: the code is looked up
 * (Enter or 下一步), the page shows who asks, and only then do 确认登录 and 拒绝 appear, each
 * acting on the first click. Editing the code goes back to the first step.
 */
export async function devicePage(): Promise<void> {
  const me = await currentUser().catch(() => null);
  if (!me) {
    location.replace(loginUrl());
    return;
  }
  const msg = notice();
  const given = (new URLSearchParams(location.search).get('user_code') ?? '')
    .replace(/\D/g, '')
    .slice(0, 6);
  const code = sixDigitInput('user_code', {
    value: given,
    class: 'code-input',
  });
  const next = h(
    'button',
    { type: 'submit', class: 'primary', id: 'device-next' },
    t('device.next'),
  );
  const approve = h(
    'button',
    { type: 'button', class: 'primary', id: 'approve' },
    t('device.approve'),
  );
  const deny = h(
    'button',
    { type: 'button', class: 'secondary', id: 'deny' },
    t('device.deny'),
  );
  const details = h('div', {});
  const decision = h(
    'div',
    { class: 'actions', id: 'device-decision', hidden: true },
    approve,
    deny,
  );
  const result = h('div', {
    class: 'result',
    id: 'device-result',
    hidden: true,
  });
  /** The code whose request is on screen: only that one can be confirmed. */
  let shown: string | undefined;

  const failed = (err: unknown) => {
    if (needsLogin(err)) return location.replace(loginUrl());
    msg.error(messageOf(err));
  };
  const inspect = async (userCode: string) => {
    try {
      const req = await data<DeviceRequestData>('POST', 'device/inspect', {
        user_code: userCode,
      });
      // The answer may arrive after the user changed the code: show it only for the code typed.
      if (code.value.replace(/\s/g, '') !== userCode) return;
      details.replaceChildren(describe(req, me));
      shown = userCode;
      next.hidden = true;
      decision.hidden = false;
      approve.hidden = req.allowed === false;
      msg.hide();
      (req.allowed === false ? deny : approve).focus();
    } catch (err) {
      failed(err);
    }
  };
  const lookUp = async () => {
    msg.hide();
    const userCode = code.value.replace(/\s/g, '');
    if (!/^\d{6}$/.test(userCode)) return msg.error(t('device.enterCode'));
    await inspect(userCode);
  };
  const step = form(
    [field(t('device.codeLabel'), code), next],
    next,
    lookUp,
    failed,
  );
  // A changed code is a new question: the old answer, error or request no longer applies.
  code.addEventListener('input', () => {
    shown = undefined;
    details.replaceChildren();
    decision.hidden = true;
    next.hidden = false;
    msg.hide();
  });

  const decide = (refuse: boolean) => async () => {
    msg.hide();
    // Only the request on screen can be decided (docs/api.md §11): never a code nobody looked at.
    const userCode = shown;
    if (!userCode) return;
    try {
      const app = await data<Approved>(
        'POST',
        'device/approve',
        refuse ? { user_code: userCode, deny: true } : { user_code: userCode },
      );
      const name = app.display_name || app.client_id;
      controls.hidden = true;
      result.hidden = false;
      result.textContent = refuse
        ? t('device.denied', { app: name })
        : t('device.approved', { app: name, username: me.username });
      result.className = refuse
        ? 'result notice error'
        : 'result notice success';
    } catch (err) {
      failed(err);
    }
  };
  const controls = h('div', {}, step, details, decision);
  approve.addEventListener('click', () => void busy(approve, decide(false)));
  deny.addEventListener('click', () => void busy(deny, decide(true)));
  render(
    t('device.title'),
    [
      h('p', {}, t('device.intro')),
      h(
        'p',
        { class: 'muted small' },
        t('consent.currentAccount'),
        h('strong', {}, me.username),
      ),
      msg.el,
      controls,
      result,
    ],
    { me },
  );
  // A code from the link is looked up at once, but never confirmed without the user's click.
  if (given.length === 6) await busy(next, lookUp);
  else code.focus();
}
