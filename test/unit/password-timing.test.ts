import { describe, expect, it } from 'vitest';
import { Passwords } from '../../src/platform/crypto/passwords.js';

/**
 * An account without a usable hash must cost what an unknown one costs, not answer at once.
 * It compares elapsed times, so it runs in the serial test project, where no other file
 * competes for the CPU.
 */
describe('Passwords', () => {
  const passwords = new Passwords();

  it('an account without a usable hash costs a dummy verification, like an unknown one', async () => {
    await passwords.warmUp();
    const started = performance.now();
    expect(await passwords.verify(undefined, 'whatever-password')).toBe(false);
    const unknown = performance.now() - started;
    const again = performance.now();
    expect(await passwords.verify('!no-password', 'whatever-password')).toBe(
      false,
    );
    const none = performance.now() - again;
    // Both run one argon2id verification: the same order of magnitude, not an instant answer.
    expect(none).toBeGreaterThan(unknown / 4);
  });
});
