/** What a rule decides: a value, or the reason of the refusal (errors/ maps it to status and msg). */
import type { Reason, Refusal } from './index.js';

export type Outcome<T> = { ok: true; value: T } | ({ ok: false } & Refusal);
export const accept = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const refuse = <T = never>(
  reason: Reason,
  field?: string,
): Outcome<T> => ({ ok: false, reason, ...(field !== undefined && { field }) });
