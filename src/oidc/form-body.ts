import type { FastifyInstance } from 'fastify';

/** Form fields; a name sent more than once keeps every value (RFC 6749 §3.1 refuses repeats). */
export type FormFields = Record<string, string | string[]>;

export function parseForm(text: string): FormFields {
  const out: FormFields = Object.create(null) as FormFields;
  for (const [name, value] of new URLSearchParams(text)) {
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/**
 * `application/x-www-form-urlencoded` bodies, for the standard endpoints only: call it inside
 * the OIDC plugin's own scope, so the seed API keeps its JSON-only rule (415 for anything else).
 */
export function registerFormBody(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8')));
  });
}

/** The fields of a parsed form body or query string; anything that is not an object has none. */
export function fieldsOf(input: unknown): FormFields {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as FormFields) : {};
}
