/** What the limits feature offers the others; everything else in this folder is its own. */
export { LoginThrottle, OTP_RULES, throttledExchange } from './rate-limiter.js';
export type {
  CountedTry,
  ExchangeFailure,
  RateLimiter,
} from './rate-limiter.js';
