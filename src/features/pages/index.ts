/** What the pages feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { pagesRoutes, type PageRouteDeps } from './routes.js';
export {
  PAGE_HEADERS,
  loadBundle,
  sendNotFoundPage,
  sendPage,
} from './routes.js';
export { escapeHtml } from './site-name.js';
export type { PageRouteDeps };

/** The pages of docs/api.md §11 and their assets. */
export async function register(
  app: FastifyInstance,
  deps: PageRouteDeps,
): Promise<void> {
  await routesInScope(app, pagesRoutes, deps);
}
