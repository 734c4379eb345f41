import { refused } from '../../src/errors/index.js';
import type { Outcome } from '../../src/errors/outcome.js';

/** A rule's outcome as the client sees it: a refusal reason becomes the status and msg of the errors table. */
export function viaTable<T>(
  o: Outcome<T>,
): { ok: true; value: T } | { ok: false; status: number; msg: string } {
  if (o.ok) return o;
  const err = refused(o);
  return { ok: false, status: err.status, msg: err.msg };
}
