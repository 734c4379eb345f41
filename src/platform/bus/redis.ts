import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { LocalChangeBus, type ChangeBus, type ChangeEvent } from './change-bus.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../rate-limit/stores.js';

/** Keys and channel are named after the deployment's REDIS_PREFIX (default `account-center`). */
const DEFAULT_PREFIX = 'account-center';

/** Adds one and starts the window on the first hit, in one step so no counter lives forever. */
const INCREMENT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n`;

/** Takes one back from a live counter, never below zero and never creating one. */
const DECREMENT_SCRIPT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0`;

function connect(url: string, log: Logger, role: string): Redis {
  // Commands fail fast while Redis is away instead of piling up behind requests.
  const client = new Redis(url, { maxRetriesPerRequest: 1, enableAutoPipelining: true, lazyConnect: false });
  let reported = false;
  client.on('error', (err) => {
    if (!reported) log.error({ err, role }, 'redis connection error');
    reported = true;
  });
  client.on('ready', () => {
    if (reported) log.info({ role }, 'redis connection restored');
    reported = false;
  });
  return client;
}

/**
 * Fixed-window counters shared by every instance. While Redis is unreachable the counts fall
 * back to this process alone (logged), so an outage degrades limits instead of failing logins.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly fallback: MemoryRateLimitStore;
  private readonly keyPrefix: string;

  constructor(url: string, private readonly log: Logger, now: () => number = Date.now, prefix = DEFAULT_PREFIX) {
    this.keyPrefix = `${prefix}:rl:`;
    this.redis = connect(url, log, 'rate-limit');
    this.redis.defineCommand('acIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    this.redis.defineCommand('acDecrement', { numberOfKeys: 1, lua: DECREMENT_SCRIPT });
    this.fallback = new MemoryRateLimitStore(now);
  }

  async increment(key: string, windowMs: number): Promise<number> {
    try {
      const run = (this.redis as unknown as { acIncrement(k: string, ms: number): Promise<number> }).acIncrement;
      return Number(await run.call(this.redis, this.keyPrefix + key, Math.max(1, Math.ceil(windowMs))));
    } catch (err) {
      this.log.warn({ err }, 'rate limit counted locally: redis unavailable');
      return this.fallback.increment(key, windowMs);
    }
  }

  async decrement(key: string): Promise<void> {
    try {
      const run = (this.redis as unknown as { acDecrement(k: string): Promise<number> }).acDecrement;
      await run.call(this.redis, this.keyPrefix + key);
    } catch (err) {
      this.log.warn({ err }, 'rate limit counted locally: redis unavailable');
      await this.fallback.decrement(key);
    }
  }

  async peek(key: string): Promise<number> {
    try {
      return Number((await this.redis.get(this.keyPrefix + key)) ?? 0);
    } catch {
      return this.fallback.peek(key);
    }
  }

  async msLeft(key: string): Promise<number> {
    try {
      // PTTL is -2 for no key and -1 for one without expiry: neither holds anyone back.
      return Math.max(0, await this.redis.pttl(this.keyPrefix + key));
    } catch {
      return this.fallback.msLeft(key);
    }
  }

  async reset(key: string): Promise<void> {
    await this.fallback.reset(key);
    try {
      await this.redis.del(this.keyPrefix + key);
    } catch (err) {
      this.log.warn({ err }, 'rate limit reset not shared: redis unavailable');
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Change events go to local listeners at once and to every other instance over a Redis
 * channel; an instance ignores the copy of its own messages. If Redis is down, the other
 * instances still converge through their short cache lifetimes and revocation polling.
 */
export class RedisChangeBus implements ChangeBus {
  private readonly local = new LocalChangeBus();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly instanceId = randomUUID();

  private readonly channel: string;

  constructor(url: string, private readonly log: Logger, prefix = DEFAULT_PREFIX) {
    this.channel = `${prefix}:changes`;
    this.pub = connect(url, log, 'change-bus publish');
    this.sub = connect(url, log, 'change-bus subscribe');
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.receive(message);
    });
  }

  /** Resolves once the subscription is active, so no event published after it is missed. */
  async ready(): Promise<void> {
    await this.sub.subscribe(this.channel);
  }

  private receive(message: string): void {
    let parsed: { from?: string; event?: ChangeEvent };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return;
    }
    if (parsed.from === this.instanceId || !parsed.event) return;
    this.local.deliver(parsed.event);
  }

  publish(event: ChangeEvent): void {
    this.local.publish(event);
    this.pub.publish(this.channel, JSON.stringify({ from: this.instanceId, event })).catch((err: unknown) => {
      this.log.warn({ err, event }, 'change not broadcast: redis unavailable; other instances catch up by polling');
    });
  }

  subscribe(listener: (event: ChangeEvent) => void): void {
    this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    await Promise.all([this.pub, this.sub].map((c) => c.quit().catch(() => c.disconnect())));
  }
}
