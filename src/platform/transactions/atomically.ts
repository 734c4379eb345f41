/**
 * Runs `work` in one transaction over the repositories `R`: every write it makes through them
 * commits together, or none does when it throws. A backend's `atomically` hands over all of its
 * repositories; a caller names, with `R`, the few its work uses.
 */
export type Atomically<R> = <T>(work: (repos: R) => Promise<T>) => Promise<T>;
