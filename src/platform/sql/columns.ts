/** A nullable numeric column as read back from either backend (PostgreSQL returns BIGINT as text). */
export const num = (v: unknown): number | null =>
  v === null || v === undefined ? null : Number(v);
