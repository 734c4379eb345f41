import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Passwords } from '../../src/platform/crypto/passwords.js';

/** A thread's nice value, from /proc (field 19 of its stat); undefined once it has ended. */
function niceOf(tid: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return undefined;
  }
}

describe('Passwords', () => {
  const passwords = new Passwords();

  it('hashes with argon2id and verifies the same password only', async () => {
    const stored = await passwords.hash('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await passwords.verify(stored, 'correct horse')).toBe(true);
    expect(await passwords.verify(stored, 'correct horsE')).toBe(false);
    expect(await passwords.verify(undefined, 'correct horse')).toBe(false);
    expect(
      await passwords.verify('$argon2id$v=19$m=19456,t=2,p=1$AAAA$AAAA', 'x'),
    ).toBe(false);
  });

  it('answers every one of many hashes asked for at once, each with its own result', async () => {
    const stored = await passwords.hash('pw-0');
    const checks = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        passwords.verify(stored, `pw-${i % 3}`),
      ),
    );
    expect(checks).toEqual(Array.from({ length: 12 }, (_, i) => i % 3 === 0));
  });

  it.runIf(existsSync('/proc/thread-self'))(
    'hashes on a thread at a lower priority than the event loop',
    async () => {
      await passwords.hash('anything');
      const mainNice = niceOf(String(process.pid))!; // the main thread's id is the process id
      const others = readdirSync('/proc/self/task')
        .map(niceOf)
        .filter((nice) => nice !== undefined);
      expect(others.some((nice) => nice > mainNice)).toBe(true);
    },
  );
});
