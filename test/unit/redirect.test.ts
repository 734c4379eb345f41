import { describe, expect, it } from 'vitest';
import {
  allowedOriginsOf,
  composeRedirectUrl,
  isRegisteredRedirect,
  isValidOrigin,
  isValidRedirectUri,
  originOfRedirect,
} from '../../src/features/apps/redirect-uris.js';

describe('isValidRedirectUri', () => {
  it.each([
    'https://good.example.com/cb',
    'https://good.example.com:8443/cb?x=1',
    'http://localhost:3000/cb',
    'http://127.0.0.1/cb',
    'http://[::1]:8080/cb',
    'com.example.app:/cb',
    'com.example.app:/oauth2redirect?x=1',
  ])('accepts %s', (uri) => expect(isValidRedirectUri(uri)).toBe(true));

  it.each([
    '',
    '/cb',
    'good.example.com/cb',
    'https://good.example.com/cb#frag',
    'https://good.example.com/cb#',
    'http://good.example.com/cb',
    'http://localhost.evil.com/cb',
    'javascript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'myapp:/cb',
    'https://user:pw@good.example.com/cb',
    'https://good.example.com/c b',
    'https://good.example.com/\ncb',
    `https://x.com/${'a'.repeat(2100)}`,
  ])('refuses %j', (uri) => expect(isValidRedirectUri(uri)).toBe(false));
});

describe('isRegisteredRedirect: exact, character for character', () => {
  const registered = [
    'https://good.example.com/cb',
    'http://localhost:3000/cb?app=1',
  ];
  it('accepts an exact match', () => {
    expect(
      isRegisteredRedirect(registered, 'https://good.example.com/cb'),
    ).toBe(true);
    expect(
      isRegisteredRedirect(registered, 'http://localhost:3000/cb?app=1'),
    ).toBe(true);
  });
  it.each([
    'https://good.example.com/cb/',
    'https://GOOD.example.com/cb',
    'https://good.example.com/CB',
    'https://good.example.com/cb?x=1',
    'https://good.example.com:443/cb',
    'https://good.example.com:8443/cb',
    'http://good.example.com/cb',
    'https://good.example.com.evil.com/cb',
    'https://good.example.com@evil.com/cb',
    'https://good.example.com/cb#x',
    'https://good.example.com/cb/../cb',
    'https://good.example.com/c%62',
    'http://localhost:3000/cb',
    ' https://good.example.com/cb',
  ])('refuses %j', (uri) =>
    expect(isRegisteredRedirect(registered, uri)).toBe(false),
  );
});

describe('origins', () => {
  it.each([
    'https://good.example.com',
    'http://localhost:3000',
    'https://good.example.com:8443',
    'http://[::1]:3000',
    'tauri://localhost',
    'chrome-extension://abcdef',
  ])('accepts %s', (o) => expect(isValidOrigin(o)).toBe(true));
  it.each([
    'null',
    'https://good.example.com/',
    'https://good.example.com/path',
    'https://GOOD.example.com',
    'https://good.example.com:443',
    'good.example.com',
    '*',
    '',
    'https://good.example.com?x',
    'https://u@good.example.com',
  ])('refuses %j', (o) => expect(isValidOrigin(o)).toBe(false));

  it('derives the whitelist from callbacks when cors_origins is empty', () => {
    expect(originOfRedirect('https://good.example.com:8443/cb?x')).toBe(
      'https://good.example.com:8443',
    );
    expect(originOfRedirect('com.example.app:/cb')).toBeUndefined();
    expect(
      allowedOriginsOf({
        corsOrigins: [],
        redirectUris: [
          'https://a.example.com/1',
          'https://a.example.com/2',
          'com.example.app:/cb',
        ],
      }),
    ).toEqual(['https://a.example.com']);
    expect(
      allowedOriginsOf({
        corsOrigins: ['https://b.example.com'],
        redirectUris: ['https://a.example.com/1'],
      }),
    ).toEqual(['https://b.example.com']);
  });
});

describe('composeRedirectUrl', () => {
  it('uses ? or & and URL-encodes code and state; state only when given', () => {
    expect(composeRedirectUrl('https://a.example.com/cb', 'abc', 'x y&z')).toBe(
      'https://a.example.com/cb?code=abc&state=x%20y%26z',
    );
    expect(
      composeRedirectUrl('https://a.example.com/cb?app=1', 'a-b_c', 's'),
    ).toBe('https://a.example.com/cb?app=1&code=a-b_c&state=s');
    expect(composeRedirectUrl('com.example.app:/cb', 'abc')).toBe(
      'com.example.app:/cb?code=abc',
    );
    expect(composeRedirectUrl('https://a.example.com/cb', 'abc', '')).toBe(
      'https://a.example.com/cb?code=abc&state=',
    );
  });
});
