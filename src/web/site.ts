/** What the center calls itself (SITE_NAME), given by the server as <body data-site-name>. */
export function siteName(): string {
  return document.body.dataset.siteName || '账号中心';
}
