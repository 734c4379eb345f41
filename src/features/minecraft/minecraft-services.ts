import type { Config } from '../../config/index.js';
import type { RateLimiter } from '../limits/index.js';
import type { SecondFactorService } from '../second-factor/index.js';
import type { Captcha } from '../abuse/index.js';
import { ProfileService, type ProfileDeps } from './profile-service.js';
import { ProfileViews } from './profile-views.js';
import { PropertySigningKey } from './signing-key.js';
import { YggdrasilService, type YggdrasilDeps } from './yggdrasil-service.js';
import { YggdrasilSignIn, type SignInDeps } from './yggdrasil-sign-in.js';

/** The metadata document at the API root (docs/api.md §18.1). */
export interface YggdrasilMetadata {
  meta: Record<string, unknown>;
  skinDomains: string[];
  signaturePublickey: string;
}

/** Minecraft sign-in (docs/api.md §18) as the routes use it. */
export interface MinecraftServices {
  /** MINECRAFT=on; off, nothing of this feature answers. */
  readonly enabled: boolean;
  /** What a player pastes into a launcher's authlib-injector login: `{BASE_URL}/api/yggdrasil/`. */
  readonly apiRoot: string;
  readonly profiles: ProfileService;
  readonly yggdrasil: YggdrasilService;
  metadata(): Promise<YggdrasilMetadata>;
  /** Creates the signing key on the first start, so the first launcher does not wait for it. */
  start(): Promise<void>;
}

/** What the Minecraft services are built from. */
export type MinecraftDeps = ProfileDeps &
  YggdrasilDeps &
  SignInDeps & {
    readonly config: Pick<
      Config,
      'jwtSecret' | 'baseUrl' | 'minecraft' | 'siteName'
    >;
  };

export function createMinecraftServices(
  kit: MinecraftDeps,
  limiter: RateLimiter,
  secondFactor: Pick<SecondFactorService, 'required'>,
  captcha: Pick<Captcha, 'signInGateUp'>,
): MinecraftServices {
  const { config, storage, now } = kit;
  const key = new PropertySigningKey(
    storage.minecraft.key,
    config.jwtSecret,
    now,
  );
  const views = new ProfileViews(config.baseUrl, key, now);
  const signIn = new YggdrasilSignIn(kit, limiter, secondFactor, captcha);
  return {
    enabled: config.minecraft,
    apiRoot: `${config.baseUrl}/api/yggdrasil/`,
    profiles: new ProfileService(kit, limiter),
    yggdrasil: new YggdrasilService(kit, signIn, views),
    async metadata() {
      return {
        meta: {
          serverName: config.siteName,
          implementationName: 'account-center',
          implementationVersion: '1',
          links: {
            homepage: `${config.baseUrl}/`,
            register: `${config.baseUrl}/register`,
          },
          'feature.non_email_login': true,
        },
        skinDomains: [new URL(config.baseUrl).hostname],
        signaturePublickey: await key.publicPem(),
      };
    },
    async start() {
      if (config.minecraft) await key.publicPem();
    },
  };
}
