import { describe, expect, it } from 'vitest';
import {
  jtiIssuedMs,
  newJti,
  newSid,
} from '../../src/platform/jwt/token-ids.js';

describe('token ids', () => {
  it('a jti carries its issue millisecond, then 128 random bits', () => {
    const ms = 1_790_000_000_123;
    const jti = newJti(ms);
    expect(jti).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    expect(jtiIssuedMs(jti)).toBe(ms);
    expect(newJti(ms)).not.toBe(jti);
  });

  it('a jti without a time reads as -1, before every cut-off', () => {
    for (const jti of ['', 'abc', '.abc', '!!.abc'])
      expect(jtiIssuedMs(jti)).toBe(-1);
  });

  it('a sid is 22 base64url characters, different every time', () => {
    const [a, b] = [newSid(), newSid()];
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(a).not.toBe(b);
  });
});
