/**
 * The one wait loop of the tests: polls `probe` until it gives a value (anything but
 * undefined or false) and resolves with it; fails naming `what` after `timeoutMs`. A probe
 * that throws ends the wait at once (a server that exited will not come up later).
 */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
