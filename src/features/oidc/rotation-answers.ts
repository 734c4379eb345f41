import { LRUCache } from 'lru-cache';
import { arrivalsSoFar } from '../../platform/http/request-log.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { PresentedRefreshToken } from './repository.js';

const PENDING = -1;

/**
 * Tells a refresh race from reuse (RFC 9700 §4.14.2). Reuse is a client presenting a token
 * after the answer that rotated it was ready: the client had its successor. A request that
 * reached the center before that answer was ready is the same client racing itself (two tabs,
 * a retry, two instances), however its reads interleave with the rotation's.
 *
 * Rotations on this instance are remembered with the number of requests that had arrived when
 * their answer was ready, so the order of arrival decides, whatever the clock says. For a
 * rotation made by another instance (or long ago) the wall clock decides: a request that
 * arrived before the token was used cannot hold its successor.
 */
export class RotationAnswers {
  private readonly answeredAt = new LRUCache<string, number>({
    max: 10_000,
    ttl: 60_000,
  });

  begin(successorHash: string): void {
    this.answeredAt.set(successorHash, PENDING);
  }

  answered(successorHash: string): void {
    this.answeredAt.set(successorHash, arrivalsSoFar());
  }

  /** Whether the rotation that used `presented` had answered before `caller` arrived. */
  answeredBefore(presented: PresentedRefreshToken, caller: Caller): boolean {
    if (!presented.successorStored) return false;
    if (presented.successorHash === null) return true;
    const answeredAt = this.answeredAt.get(presented.successorHash);
    if (answeredAt === PENDING) return false;
    if (caller.arrival === undefined) return true;
    if (answeredAt !== undefined) return caller.arrival.seq > answeredAt;
    return presented.usedAt === null || caller.arrival.atMs >= presented.usedAt;
  }
}
