import { badParam } from '../../errors/index.js';
import { isBanned, type User } from '../accounts/index.js';

/** The reason and end (unix seconds) of a ban in force at `now`; empty and null otherwise. */
export function banOf(
  u: User,
  now: number,
): { ban_reason: string; banned_until: number | null } {
  if (!isBanned(u, now)) return { ban_reason: '', banned_until: null };
  return {
    ban_reason: u.banReason,
    banned_until:
      u.bannedUntil === null ? null : Math.floor(u.bannedUntil / 1000),
  };
}

/** A ban's optional terms as the API and the CLI give them. */
export interface BanTerms {
  reason?: string;
  /** ISO-8601 time with a zone, in the future; absent: permanent. */
  until?: string;
}

export const BAN_REASON_MAX = 500;
// A full date and time with its zone: a zoneless time would mean the server's local time.
const ISO_INSTANT =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Whether the date part names a real day: `Date.parse` rolls 02-30 over to March. */
function isCalendarDay(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  return (
    m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate()
  );
}

/** The end of a ban in ms: 400 `参数错误：until` unless an ISO-8601 instant after `now`. */
export function banEnd(until: string | undefined, now: number): number | null {
  if (until === undefined) return null;
  const ms =
    ISO_INSTANT.test(until) && isCalendarDay(until) ? Date.parse(until) : NaN;
  if (!Number.isFinite(ms) || ms <= now) throw badParam('until');
  return ms;
}
