import type { NewApp } from '../../src/features/apps/repository.js';
import type { NewUser } from '../../src/features/accounts/repository.js';
import { UniqueViolation } from '../../src/platform/sql/unique-violation.js';

// Two counters with their own markers, so the OpenID Connect tests' names never meet the others'.
let seq = 0;
export const unique = (p: string) => `${p}${process.pid}x${++seq}`;
export let oidcSeq = 0;
export const oidcUnique = (p: string) => `${p}${process.pid}o${++oidcSeq}`;

export const newUser = (o: Partial<NewUser> = {}): NewUser => {
  const username = o.username ?? unique('u');
  return {
    username,
    email: `${username}@example.com`,
    displayName: username,
    passwordHash: 'h',
    emailVerified: false,
    roles: ['player'],
    ...o,
  };
};

export const newApp = (ownerId: number, o: Partial<NewApp> = {}): NewApp => ({
  clientId: unique('app'),
  ownerId,
  displayName: 'App',
  homepage: 'https://a.example',
  scopes: ['profile'],
  redirectUris: ['https://a.example/cb'],
  corsOrigins: [],
  clientType: 'confidential',
  secretHash: 'abc',
  status: 'active',
  ...o,
});

/** The field a write refused as taken; fails when the write went through. */
export async function violation(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof UniqueViolation) return err.field;
    throw err;
  }
  throw new Error('expected a UniqueViolation');
}
