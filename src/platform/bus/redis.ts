import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import {
  LocalChangeBus,
  type ChangeBus,
  type ChangeEvent,
} from './change-bus.js';

/** Keys and channel are named after the deployment's REDIS_PREFIX (default `account-center`). */
export const DEFAULT_REDIS_PREFIX = 'account-center';

/** A client for one role (counters, publishing, subscribing), reporting an outage once and its end. */
export function connectRedis(
  url: string,
  log: Logger,
  role: string,
  options: RedisOptions = {},
): Redis {
  // Commands fail fast while Redis is away instead of piling up behind requests.
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableAutoPipelining: true,
    lazyConnect: false,
    ...options,
  });
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

  constructor(
    url: string,
    private readonly log: Logger,
    prefix = DEFAULT_REDIS_PREFIX,
  ) {
    this.channel = `${prefix}:changes`;
    this.pub = connectRedis(url, log, 'change-bus publish');
    this.sub = connectRedis(url, log, 'change-bus subscribe');
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
    this.pub
      .publish(this.channel, JSON.stringify({ from: this.instanceId, event }))
      .catch((err: unknown) => {
        this.log.warn(
          { err, event },
          'change not broadcast: redis unavailable; other instances catch up by polling',
        );
      });
  }

  subscribe(listener: (event: ChangeEvent) => void): void {
    this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.pub, this.sub].map((c) => c.quit().catch(() => c.disconnect())),
    );
  }
}
