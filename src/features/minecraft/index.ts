/** What the Minecraft feature offers the others; everything else in this folder is its own. */
export {
  createMinecraftServices,
  type MinecraftServices,
} from './minecraft-services.js';
export type { MinecraftRepos } from './repository.js';
export { minecraftRoutes, ALI_HEADER } from './yggdrasil-routes.js';
export { minecraftAccountRoutes } from './account-routes.js';
