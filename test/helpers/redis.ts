import { Socket } from 'node:net';

export const TEST_REDIS_URL =
  process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const inCi =
  !!process.env.CI && !['0', 'false'].includes(process.env.CI.toLowerCase());

/** Whether something accepts connections at the Redis URL's address. */
function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const s = new Socket();
    s.setTimeout(1000);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
    s.connect(Number(port || 6379), hostname);
  });
}

/** True when Redis answers; otherwise warns loudly (tests skip), or throws when CI=true. */
export async function redisAvailable(): Promise<boolean> {
  if (await reachable(TEST_REDIS_URL)) return true;
  if (inCi)
    throw new Error(
      `CI=true: Redis is required at ${TEST_REDIS_URL} (set TEST_REDIS_URL or start it)`,
    );
  console.warn(
    `\n!!! Redis is not reachable at ${TEST_REDIS_URL}: Redis tests are SKIPPED !!!\n`,
  );
  return false;
}
