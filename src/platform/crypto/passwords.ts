import { availableParallelism } from 'node:os';
import { Algorithm } from '@node-rs/argon2';
import { HashingThreads } from '../threads/hashing-threads.js';
import { hashProblem, isArgon2, verifyForeign } from './password-formats.js';

/** argon2id, OWASP's second configuration (19 MiB, 2 passes, 1 lane). */
const OPTIONS = {
  algorithm: Algorithm.Argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Hashes running at once. Each one keeps a core busy for tens of milliseconds; with one
 * per core a login burst would starve the event loop, and every `me` would wait behind it.
 * One core is left to the event loop; logins beyond the limit wait their turn in arrival order.
 * One set per process: every service instance in it shares the same cores.
 */
const MAX_CONCURRENT_HASHES = Math.max(1, availableParallelism() - 1);
const threads = new HashingThreads(MAX_CONCURRENT_HASHES);

/**
 * Imported hashes (bcrypt, scrypt, PBKDF2) are checked where their libraries run, on the
 * thread pool or the event loop, under the same limit; they are met once per imported user.
 */
class HashQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max)
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
const foreignChecks = new HashQueue(MAX_CONCURRENT_HASHES);

export class Passwords {
  /** A hash of a password nobody knows, verified for unknown users so both cases cost the same. */
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return threads.hash(password, OPTIONS);
  }

  async verify(
    storedHash: string | undefined,
    password: string,
  ): Promise<boolean> {
    // No account, or one without a usable password (imported without one): cost the same.
    if (storedHash === undefined || hashProblem(storedHash) !== undefined) {
      this.dummy ??= this.hash('dummy-password-for-timing-only');
      const dummy = await this.dummy;
      await threads.verify(dummy, password).catch(() => false);
      return false;
    }
    if (!isArgon2(storedHash))
      return foreignChecks.run(() => verifyForeign(storedHash, password));
    try {
      return await threads.verify(storedHash, password);
    } catch {
      return false;
    }
  }

  /** Imported hashes (bcrypt, scrypt, PBKDF2, other argon2 variants) are replaced at the next sign-in. */
  needsRehash(storedHash: string): boolean {
    return !storedHash.startsWith('$argon2id$');
  }

  /** Computes the dummy hash ahead so the first unknown-user login is not faster. */
  async warmUp(): Promise<void> {
    this.dummy ??= this.hash('dummy-password-for-timing-only');
    await this.dummy;
  }
}
