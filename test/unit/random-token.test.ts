import { describe, expect, it } from 'vitest';
import { randomToken } from '../../src/services/crypto.js';

describe('randomToken', () => {
  it('gives base64url of the asked number of bytes, across pool refills, never repeating', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = randomToken(16);
      const secret = randomToken(32);
      expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      seen.add(code).add(secret);
    }
    expect(seen.size).toBe(4000);
    expect(Buffer.from(randomToken(10_000), 'base64url')).toHaveLength(10_000);
  });
});
