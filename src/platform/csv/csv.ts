/**
 * The one CSV writer of the exports (`users export --format csv`, the audit log's download).
 * A cell that begins with = + - @, a tab or a carriage return is read as a formula by
 * spreadsheets (`=HYPERLINK(…)` in a display name becomes a live link): it is written with a
 * leading `'`, which spreadsheets show as text. A cell that already begins with `'` before such
 * a character gets one more, so that `csvUnescape` gives back exactly what was written.
 */

const FORMULA_START = /^'*[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: null and undefined are empty, other non-strings are written as JSON (true, 5, {…}). */
export function csvCell(value: unknown): string {
  let s =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One line of cells, without its line break. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(csvCell).join(',');
}

/** The text of a cell as `csvCell` was given it: the `'` it added is taken off again (import). */
export function csvUnescape(cell: string): string {
  return FORMULA_START.test(cell) && cell.startsWith("'")
    ? cell.slice(1)
    : cell;
}
