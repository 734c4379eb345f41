import { describe, expect, it } from 'vitest';
import { VerifiedTokens } from '../../src/features/sessions/verified-tokens.js';

const SIGNATURE = 'x'.repeat(43);

describe('VerifiedTokens', () => {
  it('hits only for the very same token, not for another one ending alike', () => {
    const verified = new VerifiedTokens<{ uid: number }>(10);
    verified.set(`header.payload-one.${SIGNATURE}`, { uid: 1 });
    expect(verified.get(`header.payload-one.${SIGNATURE}`)).toEqual({ uid: 1 });
    expect(verified.get(`header.payload-two.${SIGNATURE}`)).toBeUndefined();
    expect(verified.get('header.payload-one.other')).toBeUndefined();
  });

  it('drops the oldest entry past its size', () => {
    const verified = new VerifiedTokens<number>(2);
    const token = (n: number) => `h.p.${String(n).padStart(40, '0')}`;
    verified.set(token(1), 1);
    verified.set(token(2), 2);
    verified.set(token(3), 3);
    expect([1, 2, 3].map((n) => verified.get(token(n)))).toEqual([
      undefined,
      2,
      3,
    ]);
  });

  it('keeps a token presented again over older ones, and never more than its size', () => {
    const verified = new VerifiedTokens<number>(3);
    const token = (n: number) => `h.p.${String(n).padStart(40, '0')}`;
    for (const n of [1, 2, 3]) verified.set(token(n), n);
    expect(verified.get(token(1))).toBe(1);
    verified.set(token(4), 4);
    verified.set(token(5), 5);
    expect([1, 2, 3, 4, 5].map((n) => verified.get(token(n)))).toEqual([
      1,
      undefined,
      undefined,
      4,
      5,
    ]);
  });
});
