/**
 * The page after an upstream provider sent the person back (docs/api.md §14.2): it finishes
 * the sign-in with the server's ticket (asking for the second factor when the account has
 * one), offers to sign in to the account that holds the provider's e-mail address and prove
 * it again before linking it, or says clearly why the sign-in did not happen.
 */
import { setToken, type TokenEnvelope } from '../api.js';
import { form, h, notice } from '../dom.js';
import { errorPage, messageOf, render } from '../layout.js';
import { finishUpstream, linkExisting } from '../upstream.js';
import { finishSignIn, signInForms } from './login.js';
import { reauthFields } from '../reauth.js';
import { withSecondStep } from './second-step.js';
import { t, type MessageKey } from '../i18n.js';
import { readable } from '../field-labels.js';

const title = () => t('upstream.title');
const backToLogin = (text = t('upstream.back')) =>
  h(
    'p',
    { class: 'links' },
    h('a', { href: '/login', id: 'upstream-back' }, text),
  );

export async function upstreamPage(): Promise<void> {
  const d = document.body.dataset;
  const ticket = d.upstreamTicket ?? '';
  const next = d.upstreamNext ?? '/account';
  const provider = d.upstreamProvider ?? '';
  // The code and state in the address are used up: a reload or the history must not offer them again.
  history.replaceState(null, '', location.pathname);
  if (d.upstreamResult === 'signin') return signIn(ticket, next, provider);
  if (d.upstreamResult === 'email_exists')
    return proveAccount(ticket, next, provider, d.upstreamEmail ?? '');
  errorPage(
    title(),
    failureText(d.upstreamProblem, provider, d.upstreamMessage),
    [backToLogin()],
  );
}

/** The problems only this page names; the others (banned, too many tries, …) are the API's own messages. */
const PROBLEMS: Record<string, MessageKey> = {
  state: 'upstream.problem.state',
  unavailable: 'upstream.problem.unavailable',
  denied: 'upstream.problem.denied',
  provider: 'upstream.problem.provider',
  network: 'upstream.problem.network',
  notMember: 'upstream.problem.notMember',
  linkedElsewhere: 'upstream.problem.linkedElsewhere',
  alreadyLinked: 'upstream.problem.alreadyLinked',
  notYourLink: 'upstream.problem.notYourLink',
  emailRequired: 'upstream.problem.emailRequired',
};

/** Why the sign-in did not happen, in the page's language (the server's message is Chinese). */
function failureText(
  problem: string | undefined,
  provider: string,
  serverMessage: string | undefined,
): string {
  if (problem !== undefined && Object.hasOwn(PROBLEMS, problem))
    return t(PROBLEMS[problem]!, { provider });
  return serverMessage ? readable(serverMessage) : t('upstream.unfinished');
}

async function signIn(
  ticket: string,
  next: string,
  provider: string,
): Promise<void> {
  render(title(), [
    h(
      'p',
      { class: 'muted', id: 'upstream-progress' },
      t('upstream.progress', { provider }),
    ),
  ]);
  let envelope: TokenEnvelope;
  try {
    envelope = await withSecondStep((otp) => finishUpstream(ticket, otp));
  } catch (err) {
    errorPage(title(), messageOf(err), [backToLogin()]);
    return;
  }
  await finishSignIn(envelope, next);
}

/**
 * An account already uses the address the provider gave: nothing is linked until the person
 * signs in to it here (password or e-mail code, and the second factor), then proves it again.
 */
function proveAccount(
  ticket: string,
  next: string,
  provider: string,
  email: string,
): void {
  const msg = notice();
  const [tabs, byPassword, byCode] = signInForms(
    msg,
    async (envelope) => {
      // Signed in: the proof step asks this account what it needs (password or mailed code, second factor).
      setToken(envelope.access_token);
      confirmLink(ticket, next, provider, envelope);
    },
    email,
  );
  render(t('upstream.linkTitle'), [
    h(
      'p',
      { id: 'upstream-email-exists' },
      t('upstream.emailExists', { email }),
    ),
    h('p', { class: 'muted small' }, t('upstream.linkHint', { provider })),
    tabs,
    msg.el,
    byPassword,
    byCode,
    backToLogin(t('upstream.notMine')),
  ]);
}

/**
 * The link itself carries the account's proof (docs/api.md §10.1): the password, or a code
 * mailed to an account without one, and the second-factor code when it is on. A token alone
 * never links anything.
 */
function confirmLink(
  ticket: string,
  next: string,
  provider: string,
  envelope: TokenEnvelope,
): void {
  const msg = notice();
  const proof = reauthFields('link_existing');
  const submit = h(
    'button',
    { type: 'submit', class: 'primary' },
    t('upstream.confirmLink', { provider }),
  );
  const confirm = form(
    [proof.el, submit],
    submit,
    async () => {
      msg.hide();
      if (!proof.check()) return;
      await linkExisting(ticket, envelope.access_token, proof.proof());
      await finishSignIn(envelope, next);
    },
    (err) => msg.error(messageOf(err)),
  );
  render(t('upstream.linkTitle'), [
    h(
      'p',
      { id: 'upstream-confirm-link' },
      t('upstream.confirmHint', { provider }),
    ),
    msg.el,
    confirm,
  ]);
}
