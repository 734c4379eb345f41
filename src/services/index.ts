import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import type { Storage } from '../storage/types.js';
import { AccountService } from './accounts.js';
import { AdminService } from './admin.js';
import { AppService } from './apps.js';
import { AuditLog } from './audit.js';
import { AuthorizationService } from './authorization.js';
import { LocalChangeBus, type ChangeBus } from './change-bus.js';
import type { ServiceContext } from './context.js';
import { DeviceService } from './device.js';
import { Housekeeping } from './housekeeping.js';
import { createMailer, type Mailer } from './mail.js';
import { Passwords } from './passwords.js';
import { MemoryRateLimitStore, type RateLimitStore } from './rate-limit.js';
import { SessionState } from './session-state.js';
import { TokenService } from './tokens.js';

export interface ServiceOptions {
  now?: () => number;
  bus?: ChangeBus;
  limits?: RateLimitStore;
  mailer?: Mailer;
}

export interface Services extends ServiceContext {
  readonly accounts: AccountService;
  readonly admin: AdminService;
  readonly apps: AppService;
  readonly authorization: AuthorizationService;
  readonly device: DeviceService;
  /** Starts background work (revocation polling); call once before serving. */
  start(): Promise<void>;
  /** Stops background work and closes what the services opened (not the storage). */
  stop(): Promise<void>;
}

export function createServices(config: Config, storage: Storage, log: Logger, opts: ServiceOptions = {}): Services {
  const now = opts.now ?? Date.now;
  const bus = opts.bus ?? new LocalChangeBus();
  const state = new SessionState(storage, bus, now);
  const ctx: ServiceContext = {
    config, storage, log, now, bus, state,
    tokens: new TokenService(config, state, now),
    passwords: new Passwords(),
    mailer: opts.mailer ?? createMailer(config.smtpUrl, config.mailFrom, log, config.nodeEnv !== 'production'),
    audit: new AuditLog(storage.audit, now, (err) => log.error({ err }, 'audit write failed')),
    limits: opts.limits ?? new MemoryRateLimitStore(now),
  };
  const housekeeping = new Housekeeping(storage, state, now, log);
  return {
    ...ctx,
    accounts: new AccountService(ctx),
    admin: new AdminService(ctx),
    apps: new AppService(ctx),
    authorization: new AuthorizationService(ctx),
    device: new DeviceService(ctx),
    async start() {
      await state.start();
      housekeeping.start();
      await ctx.passwords.warmUp();
    },
    async stop() {
      state.stop();
      housekeeping.stop();
      ctx.mailer.close();
      await ctx.limits.close();
      await bus.close();
    },
  };
}
