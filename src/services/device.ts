import {
  APPROVE_MAX_WRONG, APPROVE_WINDOW_MS, DEFAULT_POLL_INTERVAL_S, USER_CODE_LENGTH,
  canDecide, decidePoll, normalizeUserCode, verificationUris, type PollError,
} from '../domain/device.js';
import { AppError, MSG, rateLimited } from '../errors/index.js';
import { UniqueViolation, type User } from '../storage/types.js';
import type { Caller, ServiceContext } from './context.js';
import { randomDigits, randomToken, sha256Hex } from './crypto.js';
import type { TokenEnvelope } from './tokens.js';

export interface DeviceStart {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** An application a device code may be issued for. */
interface DeviceClient {
  clientId: string;
  displayName: string;
}

/** Fresh user codes tried before giving up; with a million codes, collisions are rare. */
const USER_CODE_ATTEMPTS = 20;
/** Per-IP cap on `start` (when IP limits are on): each start holds a user code for its lifetime. */
const START_PER_IP = 30;
const START_WINDOW_MS = 60_000;
/** Dead rows answer polls exactly like missing ones, so they are dropped from time to time. */
const PURGE_EVERY_MS = 60_000;

const MSG_FOR_POLL_ERROR: Record<PollError, string> = {
  authorization_pending: MSG.devicePending,
  slow_down: MSG.deviceSlowDown,
  access_denied: MSG.deviceDenied,
  expired_token: MSG.deviceInvalid,
};

function pollFailure(error: PollError, status = 400, msg = MSG_FOR_POLL_ERROR[error]): AppError {
  return new AppError(status, msg, { error });
}

/** Device login (SPEC §4.7, CONTRACT §6) and the game token (CONTRACT §7). */
export class DeviceService {
  private lastPurge = 0;

  constructor(private readonly ctx: ServiceContext) {}

  /** Starts a device login for `clientId` (omitted → the center itself). */
  async start(clientId: string | undefined, caller: Caller): Promise<DeviceStart> {
    const { config, storage, limits } = this.ctx;
    if (config.ipRateLimits && (await limits.increment(`device-start:${caller.ip}`, START_WINDOW_MS)) > START_PER_IP) {
      throw rateLimited();
    }
    const client = await this.activeClient(clientId ?? config.centerAppId);
    const deviceCode = randomToken(32);
    const now = this.ctx.now();
    if (now - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now;
      await storage.devices.purgeExpired(now);
    }
    const row = {
      deviceCodeHash: sha256Hex(deviceCode),
      clientId: client.clientId,
      interval: DEFAULT_POLL_INTERVAL_S,
      expiresAt: now + config.deviceCodeTtl * 1000,
      createdAt: now,
    };
    for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt++) {
      const userCode = randomDigits(USER_CODE_LENGTH);
      // A dead row (expired, used, denied) must not keep its code out of circulation.
      await storage.devices.releaseUserCode(userCode, now);
      try {
        await storage.devices.create({ ...row, userCode });
      } catch (err) {
        if (err instanceof UniqueViolation) continue;
        throw err;
      }
      return {
        device_code: deviceCode,
        user_code: userCode,
        ...verificationUris(config.baseUrl, userCode),
        expires_in: config.deviceCodeTtl,
        interval: DEFAULT_POLL_INTERVAL_S,
      };
    }
    // Practically only when almost every code is live at once: a flood, so "try later".
    throw rateLimited();
  }

  /** The signed-in user approves (or denies) the device showing `userCode`. */
  async approve(user: User, userCode: string, deny: boolean, caller: Caller): Promise<{ client_id: string; display_name: string }> {
    const { storage, limits } = this.ctx;
    const wrongKey = `device-approve-wrong:${user.id}`;
    // Once over the limit every try is refused, a correct code too, until the window passes.
    if ((await limits.peek(wrongKey)) >= APPROVE_MAX_WRONG) throw rateLimited();
    const now = this.ctx.now();
    const normalized = normalizeUserCode(userCode);
    const code = normalized === undefined ? undefined : await storage.devices.findLiveByUserCode(normalized, now);
    if (!code || !canDecide(code, now)) {
      await limits.increment(wrongKey, APPROVE_WINDOW_MS);
      throw new AppError(400, MSG.deviceInvalid);
    }
    const client = await this.activeClient(code.clientId);
    const decided = await storage.devices.transition(code.deviceCodeHash, 'pending', deny ? 'denied' : 'approved', user.id);
    // Someone else decided it between the read and the write.
    if (!decided) throw new AppError(400, MSG.deviceInvalid);
    await this.ctx.audit.record(deny ? 'device.deny' : 'device.approve', { actor: user.username, ip: caller.ip, target: client.clientId });
    return { client_id: client.clientId, display_name: client.displayName };
  }

  /** One poll by the device; the token envelope once approved, else an RFC 8628 error. */
  async poll(deviceCode: string, caller: Caller): Promise<TokenEnvelope> {
    const { storage } = this.ctx;
    const hash = sha256Hex(deviceCode);
    const code = await storage.devices.findByHash(hash);
    const now = this.ctx.now();
    const decision = decidePoll(code, now);
    if (decision.kind === 'fail' || !code) throw pollFailure(decision.kind === 'fail' ? decision.error : 'expired_token');

    await this.activeClient(code.clientId, 'access_denied');
    if (decision.kind === 'wait') {
      await storage.devices.recordPoll(hash, now, decision.interval);
      throw pollFailure(decision.error);
    }

    const user = await this.ctx.state.user(decision.userId);
    if (!user) throw pollFailure('expired_token');
    if (user.banned) throw pollFailure('access_denied', 403, MSG.banned);
    // Single use: of concurrent polls only the one that moves approved → used gets a token.
    if (!(await storage.devices.transition(hash, 'approved', 'used'))) throw pollFailure('expired_token');
    await this.ctx.audit.record('device.token', { actor: user.username, ip: caller.ip, target: code.clientId });
    return this.ctx.tokens.envelope(user, code.clientId).body;
  }

  /** A 30-day token for the game application, for the signed-in user. */
  async gameToken(user: User, caller: Caller): Promise<TokenEnvelope> {
    const { config } = this.ctx;
    await this.ctx.audit.record('game_token.issue', { actor: user.username, ip: caller.ip, target: config.gameAppId });
    return this.ctx.tokens.envelope(user, config.gameAppId, config.gameTokenTtl).body;
  }

  /**
   * The application behind `clientId`, if usable. The center and the game are built-in
   * first-party applications without a row; any other id must be a registered, active app.
   * `pollError` keeps the RFC 8628 `error` key on failures seen by a polling device.
   */
  private async activeClient(clientId: string, pollError?: PollError): Promise<DeviceClient> {
    const { config, storage } = this.ctx;
    if (clientId === config.centerAppId) return { clientId, displayName: 'Account Center' };
    if (clientId === config.gameAppId) return { clientId, displayName: 'Game' };
    const extra = pollError && { error: pollError };
    const app = await storage.apps.findById(clientId);
    if (!app) throw new AppError(404, MSG.unknownApp, extra);
    if (app.status !== 'active') throw new AppError(403, MSG.appDisabled, extra);
    return { clientId: app.clientId, displayName: app.displayName };
  }
}
