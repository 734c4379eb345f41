import type { FastifyReply } from 'fastify';
import { PAGE_HEADERS } from '../../pages/index.js';
import type { LogoutConfirmation } from '../end-session.js';
import { escapeHtml, sendPageHtml } from './html-page.js';
import { pageLanguage, pageText } from './page-text.js';

/** Where the confirmation form posts; its answer is the same redirect or page as the endpoint's. */
export const CONFIRM_PATH = '/oauth/end_session/confirm';

/**
 * form-action also governs where a form's answer may redirect, so the page allows the one
 * registered post-logout address it may send the browser to, besides the center itself.
 */
function formActionFor(target: string | undefined): string {
  if (target === undefined) return "form-action 'self'";
  const url = new URL(target);
  // A native app's custom scheme has no origin: its scheme is the source.
  return `form-action 'self' ${url.origin === 'null' ? url.protocol : url.origin}`;
}

const hidden = (name: string, value: string | undefined): string =>
  value === undefined
    ? ''
    : `<input type="hidden" name="${name}" value="${escapeHtml(value)}">\n`;

/**
 * RP-Initiated Logout 1.0 §6: asks the signed-in person before ending the session. A plain
 * form, no script (the pages' strict CSP); both buttons post, `取消` ends nothing.
 */
export function sendLogoutConfirmation(
  reply: FastifyReply,
  c: LogoutConfirmation,
): FastifyReply {
  const lang = pageLanguage(reply.request);
  const text = pageText(lang);
  const question = text.confirmQuestion
    .replace('{username}', escapeHtml(c.username))
    .replace('{site}', escapeHtml(reply.server.siteNames[lang]));
  const body = `<p>${question}</p>
<form method="post" action="${CONFIRM_PATH}">
${hidden('csrf_token', c.csrfToken)}${hidden('client_id', c.clientId)}${hidden('post_logout_redirect_uri', c.postLogoutRedirectUri)}${hidden('state', c.state)}<div class="actions">
<button type="submit" class="primary" name="decision" value="confirm">${text.confirm}</button>
<button type="submit" class="secondary" name="decision" value="cancel">${text.cancel}</button>
</div>
</form>`;
  const csp = PAGE_HEADERS['content-security-policy'].replace(
    "form-action 'self'",
    formActionFor(c.postLogoutRedirectUri),
  );
  return sendPageHtml(reply, 200, text.confirmTitle, body, {
    'content-security-policy': csp,
  });
}
