/** What the abuse feature offers the others; everything else in this folder is its own. */
import type { Captcha } from './captcha.js';
import type { Invites, Registration } from './registration.js';

export {
  Captcha,
  CAPTCHA_AFTER_FAILED_SIGN_INS,
  CAPTCHA_TTL_MS,
} from './captcha.js';
export { Invites, Registration } from './registration.js';
export type { CaptchaUseRepo, InviteRepo } from './repository.js';
export { abuseRoutes } from './routes.js';

/** The CAPTCHA, the registration policy and invite codes, built once by the composition root. */
export interface AbuseServices {
  readonly captcha: Captcha;
  readonly registration: Registration;
  readonly invites: Invites;
}
