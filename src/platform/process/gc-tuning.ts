import { setFlagsFromString } from 'node:v8';

/**
 * How far (in percent) past its live size the old generation may grow before V8 collects it
 * again. Left to itself V8 allows up to 4× when collecting is cheap, as it is here. Under a
 * burst of writes (code exchanges, token grants) a request waits for its group commit across
 * a few young-generation collections, so its short-lived objects are promoted: in `npm run
 * bench` the heap reached 230 MB used against 76 MB live before the next full collection, and
 * the process 350–370 MB resident. At 25 % it stayed at 258–264 MB, with the same CPU per
 * request (the full collections are incremental and the live heap is small).
 */
const HEAP_GROWING_PERCENT = 25;

/**
 * V8 flags set once at start; V8 reads both at every collection.
 *
 * No allocation-site pretenuring: when most objects made at one place in the code survive a
 * young-generation collection, V8 starts making that place's objects in the old generation
 * directly. A phase of requests that wait on the database (PostgreSQL writes: exchanges,
 * refreshes, codes) made it do so for the request path itself, and it did not go back: the
 * short-lived objects of every later request, even `me`, then filled the old generation, and
 * full collections ran about once a second for the rest of the process's life. `me` and
 * UserInfo then took 46–56 µs of CPU instead of 20 (docs/performance.md, "The GC-heavy state
 * on PostgreSQL, explained").
 */
export function tuneGarbageCollection(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString('--no-allocation-site-pretenuring');
}
