import { LRUCache } from 'lru-cache';

/** The end of a token that keys the map: part of its signature, so different tokens differ there. */
const KEY_CHARS = 32;
/** Tokens remembered; past this many the least recently used are dropped. */
const MAX_REMEMBERED = 10_000;

interface Entry<C> {
  token: string;
  claims: C;
}

/**
 * Claims of tokens (or Authorization headers) whose signature or secret was checked already, so
 * a token presented again costs a look-up instead of a verification. A Map hashes the whole string it
 * is given, which for a fresh 800-character RS256 token took longer than the rest of a userinfo
 * request's own work; the key is therefore the token's last characters, and a hit counts only
 * when the stored token equals the presented one in full. Expiry and revocation stay the
 * caller's checks on every use. Past `max` entries the least recently used go (lru-cache).
 */
export class VerifiedTokens<C extends NonNullable<unknown>> {
  private readonly byTail: LRUCache<string, Entry<C>>;

  constructor(max = MAX_REMEMBERED) {
    this.byTail = new LRUCache({ max });
  }

  get(token: string): C | undefined {
    const entry = this.byTail.get(token.slice(-KEY_CHARS));
    return entry !== undefined && entry.token === token ? entry.claims : undefined;
  }

  set(token: string, claims: C): void {
    this.byTail.set(token.slice(-KEY_CHARS), { token, claims });
  }
}
