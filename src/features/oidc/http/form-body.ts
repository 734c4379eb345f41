import type { FastifyInstance } from 'fastify';
import { parse } from 'fast-querystring';
import { badParam } from '../../../errors/index.js';
import { fieldWithNul } from '../../../platform/http/error-replies.js';

/** Form fields; a name sent more than once keeps every value (RFC 6749 §3.1 refuses repeats). */
export type FormFields = Record<string, string | string[]>;

/**
 * The WHATWG form parser's result (what `URLSearchParams` gives), from fast-querystring where
 * the two agree. They differ only where the WHATWG parser substitutes U+FFFD: a lone surrogate
 * in the text, or a field whose `%` escapes are not valid UTF-8 (fast-querystring then keeps
 * the field undecoded, so a `%` is left in it). Those bodies, and any whose fields still hold a
 * `%`, are parsed again by URLSearchParams.
 */
export function parseForm(text: string): FormFields {
  const fields = parse(text) as FormFields;
  if (
    text.isWellFormed() &&
    !(text.includes('%') && someFieldHoldsPercent(fields))
  )
    return Object.setPrototypeOf(fields, null) as FormFields;
  const out: FormFields = Object.create(null) as FormFields;
  for (const [name, value] of new URLSearchParams(text)) add(out, name, value);
  return out;
}

function someFieldHoldsPercent(fields: FormFields): boolean {
  for (const name in fields) {
    if (name.includes('%')) return true;
    const value = fields[name]!;
    if (
      typeof value === 'string'
        ? value.includes('%')
        : value.some((v) => v.includes('%'))
    )
      return true;
  }
  return false;
}

function add(out: FormFields, name: string, value: string): void {
  const prev = out[name];
  out[name] =
    prev === undefined
      ? value
      : Array.isArray(prev)
        ? [...prev, value]
        : [prev, value];
}

/**
 * `application/x-www-form-urlencoded` bodies, for the standard endpoints only: call it inside
 * the OIDC plugin's own scope, so the v1 API keeps its JSON-only rule (415 for anything else).
 */
export function registerFormBody(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      const fields = parseForm(text);
      // PostgreSQL text cannot hold NUL: refused here, as the JSON bodies are, before any field reaches a query.
      const withNul =
        text.includes('%00') || text.includes('\0')
          ? fieldWithNul(fields)
          : undefined;
      done(
        withNul === undefined ? null : badParam(withNul),
        withNul === undefined ? fields : undefined,
      );
    },
  );
}

/** The fields of a parsed form body or query string; anything that is not an object has none. */
export function fieldsOf(input: unknown): FormFields {
  return input !== null && typeof input === 'object' && !Array.isArray(input)
    ? (input as FormFields)
    : {};
}
