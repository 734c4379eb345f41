/**
 * Device login rules (docs/api.md §7, RFC 8628) as pure functions: what a poll
 * answers for a stored device code at a given instant, and what approve may act on.
 *
 * States: pending → approved → used, or pending → denied. A code past its expiry is
 * dead whatever its state; `used` and `denied` codes free their user code for reuse.
 */

export const USER_CODE_LENGTH = 6;
/** Seconds a client waits between polls, as announced by `start`. */
export const DEFAULT_POLL_INTERVAL_S = 5;
/** Seconds added to the interval on every `slow_down` (RFC 8628 §3.5); it never shrinks back. */
export const SLOW_DOWN_STEP_S = 5;
/**
 * A poll arriving this much before the interval is over still counts as on time, so
 * network jitter between two well-behaved polls does not earn a `slow_down`.
 */
export const POLL_GRACE_MS = 250;

export type DeviceState = 'pending' | 'approved' | 'denied' | 'used';

/** The fields of a stored device code that the rules look at (times in unix ms). */
export interface DeviceCodeView {
  status: DeviceState;
  userId: number | null;
  /** Current polling interval in seconds. */
  interval: number;
  lastPollAt: number | null;
  expiresAt: number;
}

/** The RFC 8628 `error` values a failed poll carries. */
export type PollError =
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token';

export type PollDecision =
  /** Still waiting; `interval` is what to store with this poll (grown on slow_down). */
  | {
      kind: 'wait';
      error: 'authorization_pending' | 'slow_down';
      interval: number;
    }
  | { kind: 'fail'; error: 'access_denied' | 'expired_token' }
  /** The user approved: try to claim the code (approved → used) and issue the token. */
  | { kind: 'redeem'; userId: number };

export function isLive(
  code: Pick<DeviceCodeView, 'expiresAt'>,
  now: number,
): boolean {
  return code.expiresAt > now;
}

/**
 * What a poll answers. Unknown, expired and already used codes look the same to the
 * client. The pacing rule only applies while waiting: a final answer (token or denial)
 * is given as soon as it exists.
 */
export function decidePoll(
  code: DeviceCodeView | undefined,
  now: number,
): PollDecision {
  if (!code || !isLive(code, now) || code.status === 'used')
    return { kind: 'fail', error: 'expired_token' };
  if (code.status === 'denied') return { kind: 'fail', error: 'access_denied' };
  if (code.status === 'approved') {
    return code.userId === null
      ? { kind: 'fail', error: 'expired_token' }
      : { kind: 'redeem', userId: code.userId };
  }
  const tooSoon =
    code.lastPollAt !== null &&
    now - code.lastPollAt < code.interval * 1000 - POLL_GRACE_MS;
  return tooSoon
    ? {
        kind: 'wait',
        error: 'slow_down',
        interval: code.interval + SLOW_DOWN_STEP_S,
      }
    : { kind: 'wait', error: 'authorization_pending', interval: code.interval };
}

/** Whether approve (or deny) may act on this code now: only a live, pending one. */
export function canDecide(
  code: DeviceCodeView | undefined,
  now: number,
): boolean {
  return code !== undefined && isLive(code, now) && code.status === 'pending';
}

/**
 * The digits a user typed, tolerating the spaces and dashes people add when copying
 * `123 456` or `123-456` from a screen; undefined when it cannot be a user code.
 */
export function normalizeUserCode(input: string): string | undefined {
  const code = input.replace(/[\s-]/g, '');
  return /^\d+$/.test(code) && code.length === USER_CODE_LENGTH
    ? code
    : undefined;
}

/** Where the user goes to approve: the page, and the page with the code filled in. */
export function verificationUris(
  baseUrl: string,
  userCode: string,
): { verification_uri: string; verification_uri_complete: string } {
  const verification_uri = `${baseUrl}/device`;
  return {
    verification_uri,
    verification_uri_complete: `${verification_uri}?user_code=${encodeURIComponent(userCode)}`,
  };
}
