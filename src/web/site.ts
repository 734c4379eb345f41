import { language } from './i18n.js';

/** What the center calls itself (SITE_NAME, else its name in the page's language), given by the server as <body data-site-name>. */
export function siteName(): string {
  return (
    document.body.dataset.siteName ||
    (language() === 'en' ? 'Account Center' : '账号中心')
  );
}
