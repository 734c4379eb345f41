import { describe, expect, it } from 'vitest';
import {
  grantScope,
  isValidScopeName,
  splitScope,
} from '../../src/features/apps/scope.js';

describe('scope', () => {
  it('splits on spaces or +, drops duplicates and empties', () => {
    expect(splitScope('a b+c  a++b')).toEqual(['a', 'b', 'c']);
    expect(splitScope('')).toEqual([]);
    expect(splitScope(' + ')).toEqual([]);
  });
  it('omitted or blank → the app scopes', () => {
    expect(grantScope(undefined, ['profile', 'email'])).toBe('profile email');
    expect(grantScope('', ['profile'])).toBe('profile');
    expect(grantScope(undefined, [])).toBe('');
  });
  it('normalises to one space', () =>
    expect(grantScope('email+profile  email', ['profile', 'email'])).toBe(
      'email profile',
    ));
  it('refuses a scope outside the app scopes', () => {
    expect(grantScope('profile admin', ['profile', 'email'])).toBeUndefined();
    expect(grantScope('Profile', ['profile'])).toBeUndefined();
  });
  it('an app listing no scopes takes any well-formed names', () => {
    expect(grantScope('read write', [])).toBe('read write');
    expect(grantScope('read\twrite', [])).toBeUndefined();
  });
  it('scope names', () => {
    expect(isValidScopeName('user:read.all-x_1')).toBe(true);
    expect(isValidScopeName('a b')).toBe(false);
    expect(isValidScopeName('')).toBe(false);
  });
});
