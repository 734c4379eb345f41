import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags `serve` sets at start unless GC_FLAGS says otherwise (docs/configuration.md).
 *
 * `--heap-growing-percent=25`: how far past its live size the old generation may grow before
 * V8 collects it again. Left to itself V8 allows up to 4× when collecting is cheap, as it is
 * here. Under a burst of writes (code exchanges, token grants) a request waits for its group
 * commit across a few young-generation collections, so its short-lived objects are promoted
 * and the heap grew to three times its live size; at 25 % the process stays much smaller, for
 * the same CPU per request (the full collections are incremental and the live heap is small).
 *
 * `--no-allocation-site-pretenuring`: when most objects made at one place in the code survive
 * a young-generation collection, V8 starts making that place's objects in the old generation
 * directly. A phase of requests that wait on the database (PostgreSQL writes: exchanges,
 * refreshes, codes) made it do so for the request path itself, and it did not go back: the
 * short-lived objects of every later request, even `me`, then filled the old generation, and
 * full collections ran about once a second for the rest of the process's life
 * (docs/performance.md, "The GC-heavy state on PostgreSQL, explained").
 */
export const DEFAULT_GC_FLAGS: readonly string[] = ['--heap-growing-percent=25', '--no-allocation-site-pretenuring'];

/** Sets V8 flags once, at start; V8 reads these at every collection. */
export function tuneGarbageCollection(flags: readonly string[]): void {
  for (const flag of flags) setFlagsFromString(flag);
}
