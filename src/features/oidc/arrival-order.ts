import { LRUCache } from 'lru-cache';

/** When a token request reached this instance: the clock, and its place among all arrivals here. */
export interface Arrival {
  at: number;
  seq: number;
}

/**
 * Enough to cover every rotation still racing (a request's lifetime) at thousands of grants a
 * second; a successor forgotten here (the least recently used go first) is judged by the
 * stored times instead.
 */
const REMEMBERED_SUCCESSORS = 20_000;

/**
 * Tells a refresh race from reuse exactly when the winning rotation ran on this instance.
 * The stored times are whole milliseconds, and a client's second request often arrives in
 * the millisecond its first one's successor was issued: `<=` then called a race reuse and
 * revoked the winner's fresh tokens, `<` would miss a reuse made that fast. Arrivals are
 * numbered, and each refresh token issued here remembers the number reached when its
 * response was ready; a request numbered above that arrived after it.
 */
export class ArrivalOrder {
  private arrived = 0;
  private readonly issuedAfter = new LRUCache<string, number>({ max: REMEMBERED_SUCCESSORS });

  constructor(private readonly now: () => number) {}

  arrive(): Arrival {
    return { at: this.now(), seq: ++this.arrived };
  }

  /** An arrival for a call that did not come through the endpoint: after everything so far. */
  current(): Arrival {
    return { at: this.now(), seq: this.arrived + 1 };
  }

  /** A refresh token is being stored under `tokenHash`: every request until it is handed out races it. */
  issuing(tokenHash: string): void {
    this.issuedAfter.set(tokenHash, Number.POSITIVE_INFINITY);
  }

  /** The refresh token stored under `tokenHash` has been handed out (or its grant failed). */
  issued(tokenHash: string): void {
    this.issuedAfter.set(tokenHash, this.arrived);
  }

  /**
   * Whether the request of `arrival` came after the token stored under `tokenHash` (created at
   * `createdAt`) was handed out; by the stored time when this instance did not issue it.
   */
  cameAfter(arrival: Arrival, tokenHash: string, createdAt: number): boolean {
    const issuedAfter = this.issuedAfter.get(tokenHash);
    return issuedAfter === undefined ? createdAt <= arrival.at : arrival.seq > issuedAfter;
  }
}
