import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failureOf } from '../../errors/index.js';
import { escapeHtml } from './site-name.js';
import type { Config } from '../../config/index.js';
import { faviconRoutes } from './favicon.js';
import { languageOf, type Language } from '../../platform/i18n/language.js';
import { SHELL_TEXT } from './page-text.js';
import { projectRoot } from '../../platform/process/project-root.js';

const WEB_DIR = join(projectRoot(), 'dist', 'web');

/** Browser pages: path → body data-page. The bundle renders each by its name; titles in page-text.ts. */
const PAGES: Record<string, string> = {
  '/authorize': 'authorize',
  '/login': 'login',
  '/register': 'register',
  '/reset_password': 'reset_password',
  '/device': 'device',
  '/console': 'console',
  '/account': 'account',
  '/admin': 'admin',
};

export const PAGE_HEADERS = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    // https: images too: the avatars of linked accounts are served by their providers (docs/api.md §14.3).
    "img-src 'self' data: https:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // /authorize carries client_id/state in its URL; no page leaks its address to another site.
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
} as const;

interface Asset {
  body: Buffer;
  type: string;
}

interface Bundle {
  js: string;
  css: string;
  /** The CAPTCHA widget's script, style and worker (docs/abuse.md), loaded by the pages that need it. */
  captcha: { script: string; style: string; worker: string };
  assets: Map<string, Asset>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Reads the hashed bundle named by dist/web/manifest.json (built by scripts/build-web.mjs). */
export function loadBundle(): Bundle | undefined {
  const manifestPath = join(WEB_DIR, 'manifest.json');
  if (!existsSync(manifestPath)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<
      'js' | 'css' | 'captcha' | 'captchaCss' | 'captchaWorker',
      string
    >;
    const assets = new Map<string, Asset>();
    for (const name of Object.values(manifest)) {
      const ext = name.slice(name.lastIndexOf('.'));
      assets.set(name, {
        body: readFileSync(join(WEB_DIR, name)),
        type: TYPES[ext] ?? 'application/octet-stream',
      });
    }
    const captcha = {
      script: `/assets/${manifest.captcha}`,
      style: `/assets/${manifest.captchaCss}`,
      worker: `/assets/${manifest.captchaWorker}`,
    };
    return { js: manifest.js, css: manifest.css, captcha, assets };
  } catch {
    // A build in progress: the next request tries again.
    return undefined;
  }
}

/** Settings a page needs before its first request, as `data-*` attributes of <body>. */
type PageData = Record<string, string>;

function shell(
  page: string,
  language: Language,
  siteNames: Readonly<Record<Language, string>>,
  bundle: Bundle | undefined,
  pageData: PageData = {},
): string {
  const siteName = siteNames[language];
  const text = SHELL_TEXT[language];
  const head = bundle
    ? `<link rel="stylesheet" href="/assets/${bundle.css}">\n<script type="module" src="/assets/${bundle.js}"></script>`
    : '';
  const fallback = bundle ? text.loading : text.notBuilt;
  // Values are never request input, but SITE_NAME comes from the operator: escaped like all of them.
  const data: PageData = { ...pageData, 'site-name': siteName };
  const attrs = Object.entries(data)
    .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
    .join('');
  const site = escapeHtml(siteName);
  const title = escapeHtml(text.titles[page] ?? text.titles.not_found!);
  // <html lang> is the language the bundle renders in (src/web/i18n.ts reads it).
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} - ${site}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${head}
</head>
<body data-page="${page}"${attrs}>
<div id="app"><noscript>${text.noscript.replace('{site}', site)}</noscript><p class="loading">${fallback}</p></div>
</body>
</html>
`;
}

/** The bundle named by the manifest, read on first use (and again while none is built). */
let bundle: Bundle | undefined;
const currentBundle = () => (bundle ??= loadBundle());

// The same address answers in the language of the request: a cache keeps one copy per choice.
const HTML_HEADERS = {
  ...PAGE_HEADERS,
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  vary: 'Accept-Language, Cookie',
};

/**
 * Sends one of the bundle's pages with settings of its own (data-* attributes): the pages
 * another feature answers itself, such as the return from an upstream provider (§14.2).
 */
export function sendPage(
  reply: FastifyReply,
  page: string,
  pageData: PageData = {},
  status = 200,
  headers: Record<string, string> = {},
): FastifyReply {
  const html = shell(
    page,
    languageOf(reply.request.headers),
    reply.server.siteNames,
    currentBundle(),
    pageData,
  );
  return reply
    .code(status)
    .headers({ ...HTML_HEADERS, ...headers })
    .send(html);
}

/** Paths whose unknown addresses stay JSON whatever the client accepts (docs/api.md §1, §12). */
const JSON_PREFIXES = ['/api/', '/oauth/', '/.well-known/', '/assets/'];

/**
 * A browser asking for a page that does not exist gets one in the site's layout; API paths,
 * the standard endpoints and any client not asking for HTML keep the `{ ok:false }` answer.
 * Answers whether it sent the page.
 */
export function sendNotFoundPage(
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!(request.headers.accept ?? '').includes('text/html')) return false;
  const path = request.url.split('?', 1)[0]!;
  if (JSON_PREFIXES.some((prefix) => path.startsWith(prefix))) return false;
  void reply
    .code(404)
    .headers(HTML_HEADERS)
    .send(
      shell(
        'not_found',
        languageOf(request.headers),
        reply.server.siteNames,
        currentBundle(),
      ),
    );
  return true;
}

/** What the routes below are given. */
export interface PageRouteDeps {
  /** What the pages tell the browser before it asks: read as each page is served. */
  services: {
    accounts: { readonly emailCodeRequired: boolean };
    abuse: {
      registration: { readonly mode: Config['registration'] };
      captcha: { readonly enabled: boolean };
    };
    minecraft: { readonly enabled: boolean; readonly apiRoot: string };
  };
}

/** The pages of docs/api.md §11 and their static assets, all under a strict CSP. */
export async function pagesRoutes(
  app: FastifyInstance,
  { services }: PageRouteDeps,
) {
  // The sign-up page marks its e-mail code field 选填 unless the server requires the code.
  const pageData: Record<string, PageData> = {
    register: {
      'email-code': services.accounts.emailCodeRequired
        ? 'required'
        : 'optional',
      registration: services.abuse.registration.mode,
    },
    account: services.minecraft.enabled
      ? { minecraft: 'on', 'minecraft-api': services.minecraft.apiRoot }
      : { minecraft: 'off' },
  };
  // The pages whose requests may need a CAPTCHA learn where the widget is (docs/abuse.md).
  const captchaPages = new Set([
    'register',
    'login',
    'reset_password',
    'authorize',
    'account',
  ]);
  const dataOf = (page: string): PageData => {
    const own = pageData[page] ?? {};
    const widget = currentBundle()?.captcha;
    if (!services.abuse.captcha.enabled || !captchaPages.has(page) || !widget)
      return own;
    return {
      ...own,
      captcha: 'altcha',
      'captcha-script': widget.script,
      'captcha-style': widget.style,
      'captcha-worker': widget.worker,
    };
  };

  for (const [path, page] of Object.entries(PAGES)) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      sendPage(reply, page, dataOf(page)),
    );
  }
  app.get('/', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers(PAGE_HEADERS).redirect('/account'),
  );
  faviconRoutes(app, PAGE_HEADERS);

  app.get<{ Params: { name: string } }>(
    '/assets/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const asset = currentBundle()?.assets.get(request.params.name);
      if (!asset) {
        const { status, body } = failureOf('notFound');
        return reply.code(status).headers(PAGE_HEADERS).send(body);
      }
      // Names carry a content hash, so a cached copy is never stale.
      return reply
        .headers({
          ...PAGE_HEADERS,
          'content-type': asset.type,
          'cache-control': 'public, max-age=31536000, immutable',
        })
        .send(asset.body);
    },
  );
}
