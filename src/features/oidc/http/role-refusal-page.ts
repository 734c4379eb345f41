import type { FastifyReply } from 'fastify';
import { escapeHtml, sendPageHtml } from './html-page.js';
import { pageLanguage, pageText } from './page-text.js';

/**
 * The page a signed-in person sees when an application admits only roles they do not hold
 * (docs/oidc.md): which app refused, that an administrator grants access, and one link back to
 * the app, which then receives `error=access_denied` and nothing about the person.
 */
export function sendRoleRefusalPage(
  reply: FastifyReply,
  refused: { app: string; username: string; back: string },
): FastifyReply {
  const text = pageText(pageLanguage(reply.request));
  // One pass with a function: neither name is read as a pattern or as another placeholder.
  const line = text.roleRefusedLine.replace(/\{(app|username)\}/g, (_, k) =>
    escapeHtml(k === 'app' ? refused.app : refused.username),
  );
  const body = `<p class="notice error" role="alert">${line}</p>
<p class="muted small">${escapeHtml(text.roleRefusedHelp)}</p>
<p class="links"><a id="back-to-app" href="${escapeHtml(refused.back)}">${escapeHtml(text.roleRefusedBack)}</a></p>`;
  return sendPageHtml(reply, 403, text.roleRefusedTitle, body);
}
