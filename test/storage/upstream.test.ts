import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { UniqueViolation } from '../../src/platform/sql/unique-violation.js';
import { openTestStorage, type TestStorage } from '../helpers/storage.js';

/**
 * The repositories of sign-in with other accounts on SQLite and PostgreSQL: one user per
 * subject and one subject per provider and user, a new account and its link written
 * together or not at all, accounts without an address, and single-use flows under concurrency.
 */
let s: Storage;
let opened: TestStorage;
let n = 0;
const unique = (p: string) => `${p}_${process.pid}_${++n}`;
const newUser = (username: string, email = '') => ({
  username,
  email,
  displayName: username,
  passwordHash: '',
  emailVerified: false,
  roles: ['player'],
});
const link = (providerId: string, subject: string) => ({
  providerId,
  subject,
  displayName: 'D',
  avatarUrl: '',
  linkedAt: 1000,
  lastUsedAt: null,
});

beforeAll(async () => {
  opened = await openTestStorage('upstream');
  s = opened.storage;
});
afterAll(async () => {
  await opened.close();
});

const violation = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err instanceof UniqueViolation
      ? err.field
      : `not a unique violation: ${String(err)}`;
  }
  return 'no error';
};

describe('upstream storage', () => {
  it('creates an account with its link in one transaction; a taken subject leaves no account behind', async () => {
    const name = unique('first');
    const user = await s.upstreamLinks.createAccount(
      newUser(name),
      link('steam', `s-${name}`),
      1000,
    );
    expect(user).toMatchObject({
      username: name,
      email: '',
      passwordHash: '',
      roles: ['player'],
    });
    expect(await s.upstreamLinks.find('steam', `s-${name}`)).toMatchObject({
      userId: user.id,
      displayName: 'D',
      linkedAt: 1000,
      lastUsedAt: null,
    });
    const loser = unique('loser');
    expect(
      await violation(
        s.upstreamLinks.createAccount(
          newUser(loser),
          link('steam', `s-${name}`),
          1000,
        ),
      ),
    ).toBe('upstream_subject');
    expect(await s.users.findByUsername(loser)).toBeUndefined();
    expect(
      await violation(
        s.upstreamLinks.createAccount(
          newUser(name),
          link('steam', unique('other')),
          1000,
        ),
      ),
    ).toBe('username');
  });

  it('accounts without an address do not collide, and no address finds them', async () => {
    const a = await s.users.create(newUser(unique('noaddr')), 1);
    const b = await s.users.create(newUser(unique('noaddr')), 1);
    expect([a.email, b.email]).toEqual(['', '']);
    expect(await s.users.findByEmail('')).toBeUndefined();
    expect(await s.users.findByLogin(a.username)).toMatchObject({ id: a.id });
    await s.users.update(a.id, { email: `${a.username}@example.com` }, 2);
    expect((await s.users.findByEmail(`${a.username}@example.com`))?.id).toBe(
      a.id,
    );
  });

  it('a subject links to one user, a user to one subject per provider', async () => {
    const u = await s.users.create(newUser(unique('linker')), 1);
    const v = await s.users.create(newUser(unique('linker')), 1);
    const subject = unique('sub');
    await s.upstreamLinks.create({ ...link('discord', subject), userId: u.id });
    expect(
      await violation(
        s.upstreamLinks.create({ ...link('discord', subject), userId: v.id }),
      ),
    ).toBe('upstream_subject');
    expect(
      await violation(
        s.upstreamLinks.create({
          ...link('discord', unique('sub')),
          userId: u.id,
        }),
      ),
    ).toBe('upstream_user');
    await s.upstreamLinks.create({
      ...link('qq', unique('sub')),
      userId: u.id,
    });
    expect(
      (await s.upstreamLinks.listByUser(u.id)).map((l) => l.providerId),
    ).toEqual(['discord', 'qq']);
    await s.upstreamLinks.touch(
      'discord',
      subject,
      { displayName: 'New', avatarUrl: 'https://a/x.png' },
      5000,
    );
    expect(await s.upstreamLinks.find('discord', subject)).toMatchObject({
      displayName: 'New',
      avatarUrl: 'https://a/x.png',
      lastUsedAt: 5000,
    });
    const removals = await Promise.all([
      s.upstreamLinks.remove(u.id, 'discord'),
      s.upstreamLinks.remove(u.id, 'discord'),
    ]);
    expect(removals.filter(Boolean)).toHaveLength(1);
    await s.upstreamLinks.removeAllOf(u.id);
    expect(await s.upstreamLinks.listByUser(u.id)).toEqual([]);
  });

  it('a flow row is used up by exactly one of 20 concurrent callers, and never once expired', async () => {
    const key = unique('flow');
    await s.upstreamFlows.put({
      keyHash: key,
      kind: 'state',
      providerId: 'p',
      browserHash: 'b',
      userId: null,
      sessionKey: null,
      next: '/account',
      payload: '{"intent":"signin"}',
      createdAt: 1000,
      expiresAt: 10_000,
    });
    expect(await s.upstreamFlows.find(key)).toMatchObject({
      kind: 'state',
      next: '/account',
      payload: '{"intent":"signin"}',
      usedAt: null,
    });
    const uses = await Promise.all(
      Array.from({ length: 20 }, () => s.upstreamFlows.consume(key, 2000)),
    );
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect((await s.upstreamFlows.find(key))?.usedAt).toBe(2000);
    const late = unique('flow');
    await s.upstreamFlows.put({
      keyHash: late,
      kind: 'signin',
      providerId: 'p',
      browserHash: 'b',
      userId: 3,
      sessionKey: null,
      next: '/',
      payload: '{}',
      createdAt: 1000,
      expiresAt: 10_000,
    });
    expect(await s.upstreamFlows.consume(late, 10_000)).toBe(false);
    expect(await s.upstreamFlows.purgeExpired(10_000)).toBeGreaterThanOrEqual(
      2,
    );
    expect(await s.upstreamFlows.find(late)).toBeUndefined();
  });

  it('providers: a taken id is refused, settings round-trip, removal', async () => {
    const id = `p${n++}`;
    const record = {
      id,
      type: 'discord' as const,
      name: 'D',
      clientId: 'c',
      clientSecretEnc: 'v1.x',
      apiKeyEnc: null,
      issuer: null,
      scopes: null,
      settings: { requireGuild: '42' },
      enabled: true,
      createdAt: 1,
      updatedAt: 1,
    };
    await s.upstreamProviders.create(record);
    expect(await violation(s.upstreamProviders.create(record))).toBe(
      'provider_id',
    );
    expect(
      await s.upstreamProviders.update(id, { enabled: false, settings: {} }, 9),
    ).toMatchObject({
      enabled: false,
      settings: {},
      updatedAt: 9,
      clientSecretEnc: 'v1.x',
    });
    expect(
      await s.upstreamProviders.update('none', { enabled: false }, 9),
    ).toBeUndefined();
    expect(await s.upstreamProviders.remove(id)).toBe(true);
    expect(await s.upstreamProviders.remove(id)).toBe(false);
  });
});
