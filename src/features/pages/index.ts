/** What the pages feature offers the others; everything else in this folder is its own. */
export { PAGE_HEADERS, loadBundle, sendPage } from './routes.js';
export { escapeHtml } from './site-name.js';
