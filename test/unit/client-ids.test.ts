import { describe, expect, it } from 'vitest';
import {
  couldBeUserSubject,
  isValidClientId,
  newClientId,
} from '../../src/features/apps/app-rules.js';

/** docs/api.md §10.5: no client id, chosen or generated, is made of digits alone. */
describe('generated client ids', () => {
  it('are 24 hex digits and valid', () => {
    for (let i = 0; i < 100; i++) {
      const id = newClientId();
      expect(id).toMatch(/^[0-9a-f]{24}$/);
      expect(isValidClientId(id)).toBe(true);
    }
  });

  it('a draw of decimal digits only is made again', () => {
    const draws = [
      Buffer.from('123456789012345678901234', 'hex'),
      Buffer.from('0123456789abcdef01234567', 'hex'),
    ];
    let calls = 0;
    const id = newClientId((bytes) => {
      expect(bytes).toBe(12);
      return draws[calls++]!;
    });
    expect(couldBeUserSubject('123456789012345678901234')).toBe(true);
    expect([id, calls]).toEqual(['0123456789abcdef01234567', 2]);
  });
});
