/**
 * The page after an upstream provider sent the person back (docs/api.md §14.2): it finishes
 * the sign-in with the server's ticket (asking for the second factor when the account has
 * one), offers to prove the account that holds the provider's e-mail address before linking
 * it, or says clearly why the sign-in did not happen.
 */
import { type TokenEnvelope } from '../api.js';
import { h, notice } from '../dom.js';
import { errorPage, messageOf, render } from '../layout.js';
import { finishUpstream, linkExisting } from '../upstream.js';
import { finishSignIn, signInForms } from './login.js';
import { withSecondStep } from './second-step.js';

const TITLE = '第三方登录';
const backToLogin = (text = '返回登录') => h('p', { class: 'links' }, h('a', { href: '/login', id: 'upstream-back' }, text));

export async function upstreamPage(): Promise<void> {
  const d = document.body.dataset;
  const ticket = d.upstreamTicket ?? '';
  const next = d.upstreamNext ?? '/account';
  const provider = d.upstreamProvider ?? '';
  // The code and state in the address are used up: a reload or the history must not offer them again.
  history.replaceState(null, '', location.pathname);
  if (d.upstreamResult === 'signin') return signIn(ticket, next, provider);
  if (d.upstreamResult === 'email_exists') return proveAccount(ticket, next, provider, d.upstreamEmail ?? '');
  errorPage(TITLE, d.upstreamMessage ?? '登录未完成，请重试。', [backToLogin()]);
}

async function signIn(ticket: string, next: string, provider: string): Promise<void> {
  render(TITLE, [h('p', { class: 'muted', id: 'upstream-progress' }, `正在使用 ${provider} 登录…`)]);
  let envelope: TokenEnvelope;
  try {
    envelope = await withSecondStep((otp) => finishUpstream(ticket, otp));
  } catch (err) {
    errorPage(TITLE, messageOf(err), [backToLogin()]);
    return;
  }
  await finishSignIn(envelope, next);
}

/**
 * An account already uses the address the provider gave: nothing is linked until the person
 * signs in to it here (password or e-mail code, and the second factor).
 */
function proveAccount(ticket: string, next: string, provider: string, email: string): void {
  const msg = notice();
  const linkThen = async (envelope: TokenEnvelope) => {
    await linkExisting(ticket, envelope.access_token);
    await finishSignIn(envelope, next);
  };
  const [tabs, byPassword, byCode] = signInForms(msg, (e) => linkThen(e).catch((err: unknown) => {
    msg.error(messageOf(err));
  }), email);
  render('绑定已有账号', [
    h('p', { id: 'upstream-email-exists' }, `邮箱 ${email} 已被一个账号使用。`),
    h('p', { class: 'muted small' }, `如果这是你的账号，请先登录它：登录后，你的 ${provider} 账号将绑定到该账号，以后可以直接使用 ${provider} 登录。为了你的安全，我们不会仅凭邮箱自动绑定。`),
    tabs, msg.el, byPassword, byCode,
    backToLogin('不是我的账号，返回登录'),
  ]);
}
