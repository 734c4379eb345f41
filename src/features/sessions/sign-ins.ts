import type { Config } from '../../config/index.js';
import type { SessionRepo, SignInSession } from './repository.js';
import type { User } from '../accounts/index.js';
import { LRUCache } from 'lru-cache';
import { newSid } from '../../platform/jwt/token-ids.js';
import type { RevokedTokens } from './revoked-tokens.js';

/** `last used` is written at most this often per session and instance, never per request. */
export const LAST_USED_WRITE_EVERY_MS = 60_000;
const MAX_TRACKED = 100_000;
/** Sessions seen are written together, one statement per this interval at most. */
const FLUSH_AFTER_MS = 1000;
const FLUSH_CHUNK = 500;
const USER_AGENT_MAX = 512;
/**
 * A session's stored expiry is written this far (a quarter of the token's lifetime, at most
 * an hour) beyond the token it must cover, so refreshes inside that margin write nothing.
 * Stored expiry errs late, never early: ending sessions and purging skip only rows whose
 * stored expiry has passed, which then holds no live token.
 */
const EXTEND_AHEAD_MAX_MS = 3_600_000;
const extendAhead = (lifetimeMs: number) =>
  Math.min(EXTEND_AHEAD_MAX_MS, Math.max(0, Math.floor(lifetimeMs / 4)));
/** Times in ms; NEVER: not written by this instance (so `last used` is due, and the expiry unknown). */
interface WrittenMarks {
  lastUsedAt: number;
  coveredUntil: number;
}
const NEVER = -Infinity;
/** Where a sign-in came from (the request's `Caller`, platform/http/typed-scope.ts, by shape). */
interface Origin {
  ip: string;
  userAgent?: string;
}
/** Ending a session puts this key in the revoked set; jti values (`<ms>.<random>`) never start so. */
export const revokedSessionKey = (sid: string) => `sid:${sid}`;

/** A new session id, the `sid` claim of every token of the sign-in. */
export const newSessionId = newSid;

/**
 * The record of each sign-in (token family): who, which app, when, from where. Tokens carry
 * its id as `sid`; ending a session revokes that id through the same revoked set (polled and
 * broadcast) as single tokens, so the per-request check stays one Map look-up.
 */
export class SignIns {
  /**
   * What this instance last wrote of each session: one entry, so a sign-in costs one insert.
   * Past MAX_TRACKED the least recently used go: a session forgotten here is only written sooner.
   */
  private readonly tracked = new LRUCache<string, WrittenMarks>({
    max: MAX_TRACKED,
  });
  /** Sessions due for a `last used` write, flushed together. */
  private readonly pending = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: SessionRepo,
    private readonly revokedTokens: Pick<RevokedTokens, 'revoke'>,
    private readonly config: Pick<Config, 'tokenTtl' | 'gameTokenTtl'>,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
    /** Told of each session ended here (sign-out, RP-initiated logout, /account): its OpenID clients are logged out. */
    private readonly onEnded: (
      sid: string,
      userId: number,
    ) => Promise<void> = async () => undefined,
  ) {}

  /**
   * Records the sign-in whose first token has these claims (`exp` in unix seconds); `method`
   * names a sign-in through another account (`upstream:<provider>`), which ID tokens report.
   */
  async record(
    first: { sid?: string; app: string; exp: number },
    user: User,
    caller: Origin,
    method = '',
  ): Promise<void> {
    const now = this.now();
    const sid = first.sid;
    if (sid === undefined) return;
    const expiresAt = first.exp * 1000 + extendAhead(first.exp * 1000 - now);
    await this.repo.create({
      id: sid,
      userId: user.id,
      app: first.app,
      createdAt: now,
      lastUsedAt: now,
      expiresAt,
      ip: caller.ip,
      userAgent: (caller.userAgent ?? '').slice(0, USER_AGENT_MAX),
      method,
    });
    this.tracked.set(sid, { lastUsedAt: now, coveredUntil: expiresAt });
  }

  /**
   * A refresh kept the session: it now lives at least until the new token expires. Written
   * only when the stored expiry (as this instance last wrote it) falls short, and then with
   * a margin, so a client refreshing often costs no write per refresh.
   */
  async extend(sid: string, exp: number): Promise<void> {
    const needed = exp * 1000;
    const covered = this.tracked.get(sid)?.coveredUntil;
    if (covered !== undefined && covered >= needed) return;
    const expiresAt = needed + extendAhead(needed - this.now());
    await this.repo.extend(sid, expiresAt);
    this.cover(sid, expiresAt);
  }

  private cover(sid: string, expiresAt: number): void {
    const marks = this.tracked.get(sid);
    if (marks) marks.coveredUntil = expiresAt;
    else this.tracked.set(sid, { lastUsedAt: NEVER, coveredUntil: expiresAt });
  }

  /**
   * Called on every accepted token with a `sid`, synchronously: a cache look-up. At most once
   * a minute a session is queued for a write, and the queue is written by one statement a
   * second that nobody waits for.
   */
  seen(sid: string): void {
    const now = this.now();
    const marks = this.tracked.get(sid);
    if (
      marks !== undefined &&
      now - marks.lastUsedAt < LAST_USED_WRITE_EVERY_MS
    )
      return;
    this.tracked.set(sid, {
      lastUsedAt: now,
      coveredUntil: marks?.coveredUntil ?? NEVER,
    });
    this.pending.add(sid);
    if (this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS);
      this.flushTimer.unref();
    }
  }

  /** Writes the queued `last used` times; also called at stop so none is lost. */
  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const ids = [...this.pending];
    this.pending.clear();
    const now = this.now();
    for (let i = 0; i < ids.length; i += FLUSH_CHUNK) {
      await this.repo
        .touchMany(ids.slice(i, i + FLUSH_CHUNK), now)
        .catch(this.onError);
    }
  }

  live(userId: number, limit = 200): Promise<SignInSession[]> {
    return this.repo.listLive(userId, this.now(), limit);
  }

  find(id: string): Promise<SignInSession | undefined> {
    return this.repo.findById(id);
  }

  /** Ends one session: every token of it fails from now on, on every instance. */
  async end(session: Pick<SignInSession, 'id' | 'userId'>): Promise<void> {
    await this.repo.end(session.id, this.now());
    await this.revokeId(session.id, session.userId);
    await this.onEnded(session.id, session.userId);
  }

  /**
   * A token was used to sign out (TokenService.revoke): its session ends with it, whichever
   * way the sign-out came (API logout, the pages' sign-out), so the list never shows as live
   * a session whose token no longer works.
   */
  async signedOut(claims: { sid?: string; uid: number }): Promise<void> {
    if (claims.sid !== undefined)
      await this.end({ id: claims.sid, userId: claims.uid });
  }

  /** Ends every open session of the user but `keep`; returns how many. */
  async endAllOf(userId: number, keep?: string): Promise<number> {
    const ended = await this.repo.endAllOf(userId, this.now(), keep);
    for (const id of ended) {
      await this.revokeId(id, userId);
      await this.onEnded(id, userId);
    }
    return ended.length;
  }

  /**
   * Marks the user's sessions ended after a cut-off (logout-all, password reset) already
   * killed their tokens: the list then shows what is really live, with no revocations needed.
   */
  async markAllEnded(userId: number, keep?: string): Promise<void> {
    await this.repo.endAllOf(userId, this.now(), keep);
  }

  /** A deleted account's sessions: its tokens are already cut off; the rows hold addresses, so they go. */
  forget(userId: number): Promise<void> {
    return this.repo.deleteAllOf(userId);
  }

  /** Revoked until any token the family may hold has expired: the longest lifetime from now. */
  private revokeId(sid: string, userId: number): Promise<void> {
    const exp =
      Math.ceil(this.now() / 1000) +
      Math.max(this.config.tokenTtl, this.config.gameTokenTtl);
    return this.revokedTokens.revoke(revokedSessionKey(sid), userId, exp);
  }
}
