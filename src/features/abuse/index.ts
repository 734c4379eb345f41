/** What the abuse feature offers the others; everything else in this folder is its own. */
import type { FastifyInstance } from 'fastify';
import { routesInScope } from '../../platform/http/typed-scope.js';
import { abuseRoutes, type AbuseRouteDeps } from './routes.js';
import type { Captcha } from './captcha.js';
import type { Invites, Registration } from './registration.js';

export {
  Captcha,
  CAPTCHA_AFTER_FAILED_SIGN_INS,
  CAPTCHA_TTL_MS,
} from './captcha.js';
export { Invites, Registration } from './registration.js';
export type { CaptchaUseRepo, InviteRepo } from './repository.js';

/** The CAPTCHA, the registration policy and invite codes, built once by the composition root. */
export interface AbuseServices {
  readonly captcha: Captcha;
  readonly registration: Registration;
  readonly invites: Invites;
}
export type { AbuseRouteDeps };

/** The CAPTCHA challenge and invite codes (docs/api.md §16). */
export async function register(
  app: FastifyInstance,
  deps: AbuseRouteDeps,
): Promise<void> {
  await routesInScope(app, abuseRoutes, deps);
}
