import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  parseForm,
  type FormFields,
} from '../../src/features/oidc/http/form-body.js';

/** The WHATWG parser's fields, repeated names kept as lists, as the standard endpoints read them. */
function reference(text: string): FormFields {
  const out: FormFields = Object.create(null) as FormFields;
  for (const [name, value] of new URLSearchParams(text)) {
    const prev = out[name];
    out[name] =
      prev === undefined
        ? value
        : Array.isArray(prev)
          ? [...prev, value]
          : [prev, value];
  }
  return out;
}

describe('form bodies', () => {
  it('parse exactly as URLSearchParams does, whether or not they need decoding', () => {
    // Escapes that are not UTF-8 (cut short, overlong, an encoded surrogate, past U+10FFFF) and stray `%`s included.
    const piece = fc.constantFrom(
      'a',
      'token',
      'eyJ.x-_~',
      '=',
      '&',
      '&&',
      '==',
      '%',
      '%2',
      '%41',
      '%E2%82%AC',
      '%C3',
      '+',
      ' ',
      'é',
      '€',
      '\u0000',
      '\ud800',
      '\udc00',
      '😀',
      ';',
      '.',
      '%c3%a9',
      '%ED%A0%80',
      '%C0%80',
      '%F4%90%80%80',
      '%EF%BB%BF',
      '%F0%9F%98%80',
      '%F0%9F',
      '%2B',
      '%25',
      '%26',
      '%3D',
      '%00',
      '%zz',
      '%%41',
      '%4',
      '%g1',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 24 }).map((p) => p.join('')),
        (text) => {
          expect(parseForm(text)).toEqual(reference(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('keeps every value of a repeated name, and empty names and values', () => {
    expect(parseForm('scope=a&scope=b&scope=c&=x&y&z=')).toEqual(
      reference('scope=a&scope=b&scope=c&=x&y&z='),
    );
    expect(parseForm('scope=a&scope=b').scope).toEqual(['a', 'b']);
    expect(Object.getPrototypeOf(parseForm('__proto__=x'))).toBeNull();
  });
});
