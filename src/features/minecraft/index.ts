/** What the Minecraft feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import {
  minecraftRoutes,
  type YggdrasilRouteDeps,
} from './yggdrasil-routes.js';
import {
  minecraftAccountRoutes,
  type MinecraftAccountRouteDeps,
} from './account-routes.js';
export {
  createMinecraftServices,
  type MinecraftServices,
} from './minecraft-services.js';
export type { MinecraftRepos } from './repository.js';
export { ALI_HEADER } from './yggdrasil-routes.js';
export type { YggdrasilRouteDeps, MinecraftAccountRouteDeps };

/** The Yggdrasil API and the profiles of an account (docs/api.md §18). */
export async function register(
  app: FastifyInstance,
  deps: YggdrasilRouteDeps & MinecraftAccountRouteDeps,
): Promise<void> {
  await routesInScope(app, minecraftRoutes, deps);
  await routesInScope(app, minecraftAccountRoutes, deps);
}
