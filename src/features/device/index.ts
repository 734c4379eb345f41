/** What the device feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { deviceRoutes, type DeviceRouteDeps } from './routes.js';
export { decidePoll } from './device-rules.js';
export type { DeviceCodeRepo } from './repository.js';
export type { DeviceService } from './device-service.js';
export type { DeviceRouteDeps };

/** The device flow. */
export async function register(
  app: FastifyInstance,
  deps: DeviceRouteDeps,
): Promise<void> {
  await routesInScope(app, deviceRoutes, deps);
}
