import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError, MSG, retryAfterHeader } from '../../../errors/index.js';
import { loadBundle, PAGE_HEADERS } from '../../pages/index.js';
import { escapeHtml } from '../../pages/index.js';
import { pageLanguage, pageText, refusalIn } from './page-text.js';

/** The pages' stylesheet (content-hashed name), read once it has been built. */
let stylesheetName: string | undefined;

export { escapeHtml };

/**
 * A server-rendered page for the answers that must not depend on the script bundle: the
 * authorization endpoint's error page and the signed-out page. Same headers as every page.
 */
export function sendHtmlPage(
  reply: FastifyReply,
  status: number,
  title: string,
  lines: string[],
  link?: { href: string; text: string },
): FastifyReply {
  // The first line is the message itself: an error when the status says so.
  const body = lines
    .map(
      (l, i) =>
        `<p class="${i === 0 ? (status >= 400 ? 'notice error' : 'notice success') : 'muted small'}"${i === 0 && status >= 400 ? ' role="alert"' : ''}>${escapeHtml(l)}</p>`,
    )
    .join('\n');
  const more = link
    ? `\n<p class="links"><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`
    : '';
  return sendPageHtml(reply, status, title, body + more);
}

/** A page around `bodyHtml` (already escaped); `headers` may replace the pages' own, e.g. the CSP. */
export function sendPageHtml(
  reply: FastifyReply,
  status: number,
  title: string,
  bodyHtml: string,
  headers: Record<string, string> = {},
): FastifyReply {
  stylesheetName ??= loadBundle()?.css;
  const css = stylesheetName;
  const lang = pageLanguage(reply.request);
  const site = escapeHtml(reply.server.siteNames[lang]);
  const stylesheet = css
    ? `<link rel="stylesheet" href="/assets/${escapeHtml(css)}">\n`
    : '';
  const html = `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} - ${site}</title>
${stylesheet}</head>
<body class="ready">
<div id="app">
<header class="topbar"><a class="brand" href="/account">${site}</a></header>
<main class="card">
<h1>${escapeHtml(title)}</h1>
${bodyHtml}
</main>
</div>
</body>
</html>
`;
  return reply
    .code(status)
    .headers({
      ...PAGE_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    })
    .send(html);
}

/** The authorization endpoint's refusal when no callback can be trusted (docs/api.md §12.3). */
export function sendAuthorizeErrorPage(
  reply: FastifyReply,
  msg: string,
): FastifyReply {
  const lang = pageLanguage(reply.request);
  const text = pageText(lang);
  return sendHtmlPage(reply, 400, text.authorizeFailed, [
    refusalIn(lang, msg),
    text.authorizeRetry,
  ]);
}

/**
 * For the endpoints a browser is sent to (authorization, end session): a body that cannot be
 * read, or a failure of ours, is answered with a page too, never with JSON.
 */
export function pageErrors(
  app: FastifyInstance,
  title: 'authorizeFailed' | 'signOutFailed',
): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    // AppError: a refusal of the shared request checks (e.g. a NUL byte in the query string).
    const code = err instanceof AppError ? err.status : err.statusCode;
    const status = code !== undefined && code >= 400 && code < 500 ? code : 500;
    if (status === 500)
      request.log.error(
        { err },
        `${request.routeOptions.url ?? 'page'} failed`,
      );
    const lang = pageLanguage(request);
    const text = pageText(lang);
    return sendHtmlPage(
      reply.headers(retryAfterHeader(err)),
      status,
      text[title],
      [
        status === 500 ? refusalIn(lang, MSG.internal) : text.unreadable,
        text.retry,
      ],
    );
  });
}
