import { sql, type RawBuilder } from 'kysely';

const DAY_MS = 86_400_000;

/**
 * The whole UTC day of a millisecond column as an integer, in the same integer arithmetic on
 * both backends (a bound parameter would make SQLite divide as floating point).
 */
export function dayOf(
  column: string,
  kind: 'sqlite' | 'postgres',
): RawBuilder<number> {
  const col = sql.ref(column);
  const dayMs = sql.raw(String(DAY_MS));
  return kind === 'postgres'
    ? sql<number>`(${col} / ${dayMs})::bigint`
    : sql<number>`cast(${col} / ${dayMs} as integer)`;
}

/** Rows of `{ d, n }` as `{ day: 'YYYY-MM-DD', count }`. */
export function perDay(
  rows: Array<{ d: unknown; n: unknown }>,
): Array<{ day: string; count: number }> {
  return rows.map((r) => ({
    day: new Date(Number(r.d) * DAY_MS).toISOString().slice(0, 10),
    count: Number(r.n),
  }));
}
