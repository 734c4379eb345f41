import { LRUCache } from 'lru-cache';

/** Tokens remembered; past this many the least recently used are dropped. */
const MAX_REMEMBERED = 10_000;

/**
 * Claims of tokens (or Authorization headers) whose signature or secret was checked already,
 * keyed by the whole token: only the very same bytes hit. Expiry and revocation stay the
 * caller's checks on every use. Past `max` entries the least recently used go (lru-cache).
 */
export class VerifiedTokens<C extends NonNullable<unknown>> {
  private readonly byToken: LRUCache<string, C>;

  constructor(max = MAX_REMEMBERED) {
    this.byToken = new LRUCache({ max });
  }

  get(token: string): C | undefined {
    return this.byToken.get(token);
  }

  set(token: string, claims: C): void {
    this.byToken.set(token, claims);
  }
}
