import { invalidRequest } from './oauth-error.js';

/** Form and query parameters as parsed: a value, or a list when a name was repeated. */
export type Params = Record<string, string | string[] | undefined>;

const MAX_VALUE = 8192;

/**
 * One parameter's value (RFC 6749 §3.1: empty means omitted, repeated is an error). Values
 * with control characters or longer than any real one are refused as invalid_request.
 */
export function param(
  params: Params | undefined,
  name: string,
): string | undefined {
  const v = params?.[name];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw invalidRequest(`${name} must be given once`);
  if (v.length > MAX_VALUE || /[\u0000-\u001f\u007f]/.test(v))
    throw invalidRequest(`${name} is malformed`);
  return v;
}

export function required(params: Params | undefined, name: string): string {
  const v = param(params, name);
  if (v === undefined) throw invalidRequest(`${name} is required`);
  return v;
}
