import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_POLL_INTERVAL_S,
  POLL_GRACE_MS,
  SLOW_DOWN_STEP_S,
  canDecide,
  decidePoll,
  normalizeUserCode,
  verificationUris,
  type DeviceCodeView,
} from '../../src/features/device/device-rules.js';

const NOW = 1_700_000_000_000;
const code = (over: Partial<DeviceCodeView> = {}): DeviceCodeView => ({
  status: 'pending',
  userId: null,
  interval: DEFAULT_POLL_INTERVAL_S,
  lastPollAt: null,
  expiresAt: NOW + 600_000,
  ...over,
});

describe('decidePoll', () => {
  it('unknown, expired and used codes are expired_token', () => {
    expect(decidePoll(undefined, NOW)).toEqual({
      kind: 'fail',
      error: 'expired_token',
    });
    expect(decidePoll(code({ expiresAt: NOW }), NOW)).toEqual({
      kind: 'fail',
      error: 'expired_token',
    });
    expect(
      decidePoll(
        code({ status: 'approved', userId: 1, expiresAt: NOW - 1 }),
        NOW,
      ),
    ).toEqual({ kind: 'fail', error: 'expired_token' });
    expect(decidePoll(code({ status: 'used', userId: 1 }), NOW)).toEqual({
      kind: 'fail',
      error: 'expired_token',
    });
  });

  it('denied is access_denied, approved is redeemed for its user', () => {
    expect(decidePoll(code({ status: 'denied', userId: 3 }), NOW)).toEqual({
      kind: 'fail',
      error: 'access_denied',
    });
    expect(decidePoll(code({ status: 'approved', userId: 3 }), NOW)).toEqual({
      kind: 'redeem',
      userId: 3,
    });
  });

  it('the first poll and an on-time poll are pending at the same interval', () => {
    expect(decidePoll(code(), NOW)).toEqual({
      kind: 'wait',
      error: 'authorization_pending',
      interval: 5,
    });
    expect(decidePoll(code({ lastPollAt: NOW - 5000 }), NOW)).toEqual({
      kind: 'wait',
      error: 'authorization_pending',
      interval: 5,
    });
    // Jitter of the network does not count as polling too fast.
    expect(
      decidePoll(code({ lastPollAt: NOW - 5000 + POLL_GRACE_MS }), NOW),
    ).toMatchObject({ error: 'authorization_pending' });
  });

  it('a poll sooner than the interval is slow_down and grows the interval by 5 s', () => {
    expect(decidePoll(code({ lastPollAt: NOW - 1000 }), NOW)).toEqual({
      kind: 'wait',
      error: 'slow_down',
      interval: 10,
    });
    // The grown interval is the one now measured against.
    expect(
      decidePoll(code({ interval: 10, lastPollAt: NOW - 7000 }), NOW),
    ).toEqual({ kind: 'wait', error: 'slow_down', interval: 15 });
    expect(
      decidePoll(code({ interval: 10, lastPollAt: NOW - 10_000 }), NOW),
    ).toEqual({ kind: 'wait', error: 'authorization_pending', interval: 10 });
  });

  it('the interval never shrinks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 5, max: 10_000 }),
        fc.option(fc.integer({ min: 0, max: 20_000_000 })),
        (interval, ago) => {
          const d = decidePoll(
            code({ interval, lastPollAt: ago === null ? null : NOW - ago }),
            NOW,
          );
          expect(d.kind).toBe('wait');
          if (d.kind === 'wait')
            expect(
              d.interval === interval ||
                d.interval === interval + SLOW_DOWN_STEP_S,
            ).toBe(true);
        },
      ),
    );
  });

  it('final answers are not held back by the pacing rule', () => {
    expect(
      decidePoll(code({ status: 'approved', userId: 1, lastPollAt: NOW }), NOW)
        .kind,
    ).toBe('redeem');
    expect(
      decidePoll(code({ status: 'denied', userId: 1, lastPollAt: NOW }), NOW),
    ).toEqual({ kind: 'fail', error: 'access_denied' });
  });
});

describe('canDecide', () => {
  it('only a live pending code can be approved or denied', () => {
    expect(canDecide(code(), NOW)).toBe(true);
    expect(canDecide(undefined, NOW)).toBe(false);
    expect(canDecide(code({ expiresAt: NOW }), NOW)).toBe(false);
    for (const status of ['approved', 'denied', 'used'] as const)
      expect(canDecide(code({ status, userId: 1 }), NOW)).toBe(false);
  });
});

describe('normalizeUserCode', () => {
  it('accepts 6 digits, tolerating spaces and dashes', () => {
    expect(normalizeUserCode('012345')).toBe('012345');
    expect(normalizeUserCode(' 123 456 ')).toBe('123456');
    expect(normalizeUserCode('123-456')).toBe('123456');
  });

  it('rejects anything else', () => {
    for (const bad of [
      '',
      '12345',
      '1234567',
      'abcdef',
      '12345a',
      '١٢٣٤٥٦',
      '123456\u0000',
    ])
      expect(normalizeUserCode(bad)).toBeUndefined();
  });
});

describe('verificationUris', () => {
  it('points at the /device page, with the code filled in', () => {
    expect(verificationUris('https://id.example.com', '042137')).toEqual({
      verification_uri: 'https://id.example.com/device',
      verification_uri_complete:
        'https://id.example.com/device?user_code=042137',
    });
  });
});
