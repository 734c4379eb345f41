import {
  RateLimiterCluster,
  RateLimiterClusterMaster,
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import { connectRedis, DEFAULT_REDIS_PREFIX } from '../bus/redis.js';

/** One fixed-window rule: `max` tries per window of `windowS` seconds, under its own name. */
export interface CounterRule {
  readonly name: string;
  readonly max: number;
  readonly windowS: number;
}

/**
 * Where the rate-limit counters live: this process, the primary of `serve --workers N`, or
 * Redis, shared by every instance. Each rule gets a rate-limiter-flexible limiter whose
 * `consume` adds a try and reports the count after it in one atomic step; over the rule it
 * rejects with that count, so a refused try has still been counted.
 */
export interface RateCounters {
  counter(rule: CounterRule): RateLimiterAbstract;
  close(): Promise<void>;
}

const options = (rule: CounterRule, keyPrefix: string) => ({
  keyPrefix,
  points: rule.max,
  duration: rule.windowS,
});

/** Counters of this process alone. */
export function memoryCounters(): RateCounters {
  return {
    counter: (rule) => new RateLimiterMemory(options(rule, `rl:${rule.name}`)),
    close: async () => undefined,
  };
}

/**
 * Counters of a worker of `serve --workers N`: each call is answered by the primary
 * (serveClusterCounters) one message at a time, so the workers count as one.
 */
export function clusterCounters(timeoutMs = 2000): RateCounters {
  return {
    counter: (rule) =>
      new RateLimiterCluster({
        ...options(rule, `rl:${rule.name}`),
        timeoutMs,
      }),
    close: async () => undefined,
  };
}

/** In the primary of `serve --workers N`: answers every worker's counters from one memory. */
export function serveClusterCounters(): void {
  // The master registers itself on node:cluster's message event; there is nothing to hold.
  new RateLimiterClusterMaster();
}

/** The in-process stand-in while Redis is unreachable: says so, then counts locally. */
class LocalWhileRedisIsAway extends RateLimiterMemory {
  constructor(
    opts: ReturnType<typeof options>,
    private readonly log: Logger,
  ) {
    super(opts);
  }

  override consume(
    ...args: Parameters<RateLimiterMemory['consume']>
  ): ReturnType<RateLimiterMemory['consume']> {
    this.log.warn('rate limit counted locally: redis unavailable');
    return super.consume(...args);
  }
}

/**
 * Counters shared by every instance through Redis (keys named after REDIS_PREFIX). While
 * Redis is unreachable the counts fall back to this process alone, so an outage degrades
 * limits instead of failing sign-ins.
 */
export function redisCounters(
  url: string,
  log: Logger,
  prefix = DEFAULT_REDIS_PREFIX,
): RateCounters {
  // A request waits on its counter: a command that Redis does not answer within a second
  // (it went away with the command under way) counts locally instead, rather than holding the
  // request until a reconnection that may never come (sign-ins hung past 20 s without this).
  const redis = connectRedis(url, log, 'rate-limit', { commandTimeout: 1_000 });
  return {
    counter(rule) {
      const opts = options(rule, `${prefix}:rl:${rule.name}`);
      return new RateLimiterRedis({
        ...opts,
        storeClient: redis,
        insuranceLimiter: new LocalWhileRedisIsAway(opts, log),
      });
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
