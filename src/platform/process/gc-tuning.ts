import { setFlagsFromString } from 'node:v8';

/**
 * Sets the V8 flags an operator asked for in GC_FLAGS (docs/configuration.md), once, at start;
 * V8 reads them at every collection. By default there are none and V8 behaves as Node ships it.
 */
export function tuneGarbageCollection(flags: readonly string[]): void {
  for (const flag of flags) setFlagsFromString(flag);
}
