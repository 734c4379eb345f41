import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../../src/platform/http/return-path.js';

const ORIGIN = 'http://127.0.0.1:3000';

describe('safeReturnPath: the sign-in pages follow `next` only to a path on this origin', () => {
  it.each([
    ['/account', '/account'],
    ['/account?tab=apps', '/account?tab=apps'],
    [
      '/authorize?client_id=a&redirect_uri=https%3A%2F%2Fa.example%2Fcb',
      '/authorize?client_id=a&redirect_uri=https%3A%2F%2Fa.example%2Fcb',
    ],
    ['/a/./b/../c', '/a/c'],
    ['/x#frag', '/x'],
  ])('follows %j → %j', (raw, want) =>
    expect(safeReturnPath(raw, ORIGIN)).toBe(want),
  );

  it.each([
    // Normalises to the protocol-relative `//evil.example/x`: another host to a browser.
    '/.//evil.example/x',
    '/./\\evil.example/x',
    '/..//evil.example/x',
    '/a/../..//evil.example/x',
    '/%2e//evil.example/x',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'https://evil.example/',
    'javascript:alert(1)',
    'account',
    '',
    ' /account',
  ])('refuses %j', (raw) =>
    expect(safeReturnPath(raw, ORIGIN)).toBe('/account'),
  );

  it('never returns a path that a browser reads as another host', () => {
    const tricks = ['/.', '/..', '/./', '/%2e', '/\\', '//', '/\t', '/%09'];
    for (const a of tricks) {
      for (const b of tricks) {
        const out = safeReturnPath(`${a}${b}evil.example/x`, ORIGIN);
        expect(new URL(out, ORIGIN).origin).toBe(ORIGIN);
        expect(out.startsWith('//') || out.startsWith('/\\')).toBe(false);
      }
    }
  });
});
