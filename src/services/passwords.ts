import { hash, verify, Algorithm } from '@node-rs/argon2';

/**
 * argon2id through @node-rs/argon2, which runs on libuv's thread pool, so a burst of
 * logins never blocks the event loop serving `me`.
 */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export class Passwords {
  /** A hash of a password nobody knows, verified for unknown users so both cases cost the same. */
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(storedHash: string | undefined, password: string): Promise<boolean> {
    if (storedHash === undefined) {
      this.dummy ??= this.hash('dummy-password-for-timing-only');
      await verify(await this.dummy, password).catch(() => false);
      return false;
    }
    try {
      return await verify(storedHash, password);
    } catch {
      return false;
    }
  }

  /** Computes the dummy hash ahead so the first unknown-user login is not faster. */
  async warmUp(): Promise<void> {
    this.dummy ??= this.hash('dummy-password-for-timing-only');
    await this.dummy;
  }
}
