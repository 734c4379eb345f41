import {
  DEFAULT_POLL_INTERVAL_S,
  USER_CODE_LENGTH,
  canDecide,
  decidePoll,
  normalizeUserCode,
  verificationUris,
  type PollError,
} from './device-rules.js';
import {
  fail,
  rateLimited,
  type AppError,
  type Reason,
} from '../../errors/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import type { DeviceCode } from './repository.js';
import { isBanned, type User } from '../accounts/index.js';
import { admits, type ResolvedClient } from '../apps/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import {
  randomDigits,
  randomToken,
  sha256Hex,
} from '../../platform/crypto/random.js';
import type { RateLimiter } from '../limits/index.js';
import {
  DEFAULT_LANGUAGE,
  type Language,
} from '../../platform/i18n/language.js';
import type { DeviceApproved, DeviceRequest, DeviceStart } from './contract.js';
import type { TokenEnvelope } from '../sessions/index.js';
import type { Config } from '../../config/index.js';
import type { ClientDirectory } from '../apps/index.js';
import type { AuditLog } from '../audit/index.js';
import type { SignIns, TokenService, UserCache } from '../sessions/index.js';
import type { DeviceCodeRepo } from './repository.js';

/** Fresh user codes tried before giving up; with a million codes, collisions are rare. */
const USER_CODE_ATTEMPTS = 20;
/** Dead rows answer polls exactly like missing ones, so they are dropped from time to time. */
const PURGE_EVERY_MS = 60_000;
/** When nearly every user code is live, codes free up as their logins end: a minute is a fair wait. */
const FLOODED_RETRY_S = 60;

const REASON_FOR_POLL_ERROR: Record<PollError, Reason> = {
  authorization_pending: 'devicePending',
  slow_down: 'deviceSlowDown',
  access_denied: 'deviceDenied',
  expired_token: 'deviceInvalid',
};

function pollFailure(
  error: PollError,
  reason = REASON_FOR_POLL_ERROR[error],
): AppError {
  return fail(reason, { error });
}

export interface DeviceDeps {
  readonly now: () => number;
  readonly userCache: UserCache;
  readonly tokens: TokenService;
  readonly audit: AuditLog;
  readonly clients: ClientDirectory;
  readonly signIns: SignIns;
  readonly storage: {
    readonly devices: DeviceCodeRepo;
  };
  readonly config: Pick<
    Config,
    'baseUrl' | 'centerAppId' | 'deviceCodeTtl' | 'gameAppId' | 'gameTokenTtl'
  >;
}

/** Device login (docs/api.md §7) and the game token (docs/api.md §3.6). */
export class DeviceService {
  private lastPurge = 0;

  constructor(
    private readonly ctx: DeviceDeps,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * Starts a device login for `clientId` (omitted → the center itself). `scope` is set only by
   * the OpenID Connect device authorization endpoint; such codes are redeemed at /oauth/token only.
   */
  async start(
    clientId: string | undefined,
    caller: Caller,
    scope?: string,
  ): Promise<DeviceStart> {
    const { config, storage } = this.ctx;
    await this.limiter.takeOrRefuse('deviceStartIp', caller.ip);
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
      scope: scope ?? null,
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
    throw rateLimited(FLOODED_RETRY_S);
  }

  /**
   * The pending device login behind `userCode`, counted like a wrong approval until it is
   * found: every look-up is taken from the user's wrong-code budget first and given back
   * only when the code turns out to be live, so neither approve nor inspect is an oracle
   * for guessing codes, however many are sent at once. Over the budget every try is
   * refused, a correct code too, until the window passes.
   */
  private async pendingCode(
    user: User,
    userCode: string,
  ): Promise<{ code: DeviceCode; client: ResolvedClient }> {
    const subject = String(user.id);
    await this.limiter.takeOrRefuse('deviceApproveWrong', subject);
    const now = this.ctx.now();
    const normalized = normalizeUserCode(userCode);
    const code =
      normalized === undefined
        ? undefined
        : await this.ctx.storage.devices.findLiveByUserCode(normalized, now);
    if (!code || !canDecide(code, now)) throw fail('deviceInvalid');
    const client = await this.activeClient(code.clientId);
    await this.limiter.giveBack('deviceApproveWrong', subject);
    return { code, client };
  }

  /** Who asks, for the approval page to show before the user decides (RFC 8628 §5.4). */
  async inspect(
    user: User,
    userCode: string,
    language?: Language,
  ): Promise<DeviceRequest> {
    const { code, client } = await this.pendingCode(user, userCode);
    return {
      client_id: client.clientId,
      display_name: this.ctx.clients.nameIn(
        client,
        language ?? DEFAULT_LANGUAGE,
      ),
      first_party: client.clientId === this.ctx.config.centerAppId,
      created_at: Math.floor(code.createdAt / 1000),
      // The page then says who refused and that an administrator grants access.
      ...(client.app && !admits(client.app, user) && { allowed: false }),
    };
  }

  /** The signed-in user approves (or denies) the device showing `userCode`. */
  async approve(
    user: User,
    userCode: string,
    deny: boolean,
    caller: Caller,
  ): Promise<DeviceApproved> {
    const { code, client } = await this.pendingCode(user, userCode);
    // Refusing is always possible; approving needs one of the app's required roles.
    if (!deny && client.app && !admits(client.app, user))
      throw fail('appRoleRequired');
    const decided = await this.ctx.storage.devices.transition(
      code.deviceCodeHash,
      'pending',
      deny ? 'denied' : 'approved',
      user.id,
    );
    // Someone else decided it between the read and the write.
    if (!decided) throw fail('deviceInvalid');
    await this.ctx.audit.record(deny ? 'device.deny' : 'device.approve', {
      actor: user.username,
      ip: caller.ip,
      target: client.clientId,
    });
    return {
      client_id: client.clientId,
      display_name: this.ctx.clients.nameIn(
        client,
        caller.language ?? DEFAULT_LANGUAGE,
      ),
    };
  }

  /** One poll by the device; the token envelope once approved, else an RFC 8628 error. */
  async poll(deviceCode: string, caller: Caller): Promise<TokenEnvelope> {
    const { storage } = this.ctx;
    const hash = sha256Hex(deviceCode);
    // Counted before the look-up; a known code gives its try back, so only unknown ones add up.
    const counted = await this.limiter.take('devicePollUnknownIp', caller.ip);
    if (!counted.within) throw counted.refusal({ error: 'slow_down' });
    const code = await storage.devices.findByHash(hash);
    if (code) await counted.giveBack();
    const now = this.ctx.now();
    const decision = decidePoll(code, now);
    if (decision.kind === 'fail' || !code || code.scope !== null)
      throw pollFailure(
        decision.kind === 'fail' ? decision.error : 'expired_token',
      );

    const client = await this.activeClient(code.clientId, 'access_denied');
    if (decision.kind === 'wait') {
      await storage.devices.recordPoll(hash, now, decision.interval);
      throw pollFailure(decision.error);
    }

    const user = await this.ctx.userCache.findById(decision.userId);
    if (!user) throw pollFailure('expired_token');
    if (isBanned(user, this.ctx.now()))
      throw pollFailure('access_denied', 'banned');
    if (client.app && !admits(client.app, user))
      throw pollFailure('access_denied', 'appRoleRequired');
    // Single use: of concurrent polls only the one that moves approved → used gets a token.
    if (!(await storage.devices.transition(hash, 'approved', 'used')))
      throw pollFailure('expired_token');
    await this.ctx.audit.signedIn(user, caller, 'device', {
      action: 'device.token',
      target: code.clientId,
    });
    const issued = await this.ctx.tokens.envelope(user, code.clientId);
    await this.ctx.signIns.record(issued.claims, user, caller);
    return issued.body;
  }

  /** A 30-day token for the game application, for the signed-in user. */
  async gameToken(user: User, caller: Caller): Promise<TokenEnvelope> {
    const { config } = this.ctx;
    await this.ctx.audit.record('game_token.issue', {
      actor: user.username,
      ip: caller.ip,
      target: config.gameAppId,
    });
    const issued = await this.ctx.tokens.envelope(
      user,
      config.gameAppId,
      config.gameTokenTtl,
    );
    await this.ctx.signIns.record(issued.claims, user, caller);
    return issued.body;
  }

  /**
   * The client behind `clientId`, if usable for device login (the built-in center and game
   * included). `pollError` keeps the RFC 8628 `error` key on failures seen by a polling device.
   */
  private async activeClient(
    clientId: string,
    pollError?: PollError,
  ): Promise<ResolvedClient> {
    const resolved = await this.ctx.clients.resolveClient(clientId, 'device');
    if (!resolved.ok)
      throw fail(resolved.reason, pollError && { error: pollError });
    return resolved.client;
  }
}
