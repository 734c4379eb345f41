import { describe, expect, it } from 'vitest';
import {
  newTimedSecret,
  randomToken,
  sha256Hex,
  timedSecretKey,
  timeOrderedId,
} from '../../src/platform/crypto/random.js';

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

describe('timeOrderedId', () => {
  it('is 22 base64url characters that sort as the times they were made at, and never repeat', () => {
    const times = [
      0,
      1,
      63,
      64,
      4095,
      4096,
      Date.UTC(2026, 10, 24),
      Date.UTC(2026, 10, 24) + 1,
      Date.UTC(2100, 0, 1),
    ];
    const ids = times.map((t) => timeOrderedId(t));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Byte order, as SQLite's BINARY collation and PostgreSQL's "C" comparisons see it.
    const byBytes = [...ids].sort((a, b) =>
      Buffer.compare(Buffer.from(a), Buffer.from(b)),
    );
    expect(byBytes).toEqual(ids);
    const sameMs = new Set(
      Array.from({ length: 2000 }, () => timeOrderedId(Date.UTC(2026, 10, 24))),
    );
    expect(sameMs.size).toBe(2000);
  });
});

describe('timed secrets (codes, refresh tokens)', () => {
  it('carry 256 random bits after the time; stored as that time and the SHA-256, older ones as the plain hash', () => {
    const at = Date.UTC(2026, 10, 24);
    const secret = newTimedSecret(at);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{50}$/);
    expect(secret.slice(0, 7)).toBe(timeOrderedId(at).slice(0, 7));
    expect(timedSecretKey(secret)).toBe(secret.slice(0, 7) + sha256Hex(secret));
    const older = randomToken(32);
    expect(timedSecretKey(older)).toBe(sha256Hex(older));
    expect(timedSecretKey(secret)).not.toContain(secret.slice(7));
  });
});
