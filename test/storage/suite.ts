import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UniqueViolation } from '../../src/platform/sql/unique-violation.js';
import type { NewApp } from '../../src/features/apps/repository.js';
import type { NewUser } from '../../src/features/accounts/repository.js';
import type { Storage } from '../../src/features/storage.js';
import { oidcStorageSuite } from './oidc-suite.js';

/** A fresh, migrated, empty storage and a way to throw it away. */
export type StorageFactory = () => Promise<{
  storage: Storage;
  dispose: () => Promise<void>;
}>;

let seq = 0;
const unique = (p: string) => `${p}${process.pid}x${++seq}`;
const newUser = (o: Partial<NewUser> = {}): NewUser => {
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
const newApp = (ownerId: number, o: Partial<NewApp> = {}): NewApp => ({
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

async function violation(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof UniqueViolation) return err.field;
    throw err;
  }
  throw new Error('expected a UniqueViolation');
}

/** Every repository method of src/features/storage.ts against one backend. */
export function storageSuite(name: string, factory: StorageFactory): void {
  describe(`storage: ${name}`, () => {
    let s: Storage;
    let dispose: () => Promise<void>;
    beforeAll(async () => ({ storage: s, dispose } = await factory()));
    afterAll(async () => {
      await s?.close();
      await dispose?.();
    });

    it('migrate is idempotent and ping answers', async () => {
      await s.migrate();
      await Promise.all([s.migrate(), s.migrate()]);
      expect(await s.ping()).toBe(true);
    });

    it('users: create, find, unique ignoring case', async () => {
      const u = await s.users.create(
        newUser({
          username: 'Alice_Case',
          email: 'Alice.Case@Example.com',
          roles: ['player', 'builder'],
        }),
        1000,
      );
      expect(u).toMatchObject({
        username: 'Alice_Case',
        email: 'Alice.Case@Example.com',
        emailVerified: false,
        banned: false,
        roles: ['player', 'builder'],
        tokensValidAfter: 0,
        createdAt: 1000,
        updatedAt: 1000,
      });
      expect(typeof u.id).toBe('number');
      expect(await s.users.findById(u.id)).toEqual(u);
      expect(await s.users.findById(999_999_999)).toBeUndefined();
      expect((await s.users.findByUsername('alice_case'))?.id).toBe(u.id);
      expect((await s.users.findByEmail('ALICE.case@example.COM'))?.id).toBe(
        u.id,
      );
      expect((await s.users.findByLogin('ALICE_CASE'))?.id).toBe(u.id);
      expect((await s.users.findByLogin('alice.case@example.com'))?.id).toBe(
        u.id,
      );
      expect(await s.users.findByLogin('nobody')).toBeUndefined();
      expect(
        await violation(s.users.create(newUser({ username: 'aLiCe_cAsE' }), 1)),
      ).toBe('username');
      expect(
        await violation(
          s.users.create(newUser({ email: 'alice.case@EXAMPLE.com' }), 1),
        ),
      ).toBe('email');
    });

    it('users: insertMany is all or nothing, takenKeys, listAfter pages in id order', async () => {
      const a = newUser({
        username: unique('Imp_A'),
        email: `${unique('imp.a')}@Example.COM`,
      });
      const b = newUser({ username: unique('imp_b') });
      await s.users.insertMany(
        [
          { ...a, banned: true, createdAt: 42 },
          { ...b, banned: false, createdAt: 43 },
        ],
        2000,
      );
      const found = await s.users.findByUsername(a.username);
      expect(found).toMatchObject({
        username: a.username,
        email: a.email,
        banned: true,
        createdAt: 42,
        updatedAt: 2000,
        roles: ['player'],
      });
      expect((await s.users.findByEmail(a.email.toLowerCase()))?.id).toBe(
        found!.id,
      );
      const taken = await s.users.takenKeys(
        [a.username.toLowerCase(), 'nobody_here'],
        [a.email.toLowerCase(), 'nobody@example.com'],
      );
      expect([...taken.usernames]).toEqual([
        [a.username.toLowerCase(), a.email.toLowerCase()],
      ]);
      expect([...taken.emails]).toEqual([a.email.toLowerCase()]);
      // One clash leaves the whole batch out.
      const c = newUser();
      expect(
        await violation(
          s.users.insertMany(
            [
              { ...c, banned: false, createdAt: 1 },
              {
                ...newUser({
                  username: b.username.toUpperCase(),
                  email: `${unique('other')}@example.com`,
                }),
                banned: false,
                createdAt: 1,
              },
            ],
            1,
          ),
        ),
      ).toBe('username');
      expect(await s.users.findByUsername(c.username)).toBeUndefined();
      const first = await s.users.listAfter(0, 2);
      expect(first).toHaveLength(2);
      expect(first[0]!.id).toBeLessThan(first[1]!.id);
      const next = await s.users.listAfter(first[1]!.id, 1000);
      expect(next.every((u) => u.id > first[1]!.id)).toBe(true);
      expect(first.length + next.length).toBe(await s.users.count());
    });

    it('users: update, changedSince, count', async () => {
      const before = await s.users.count();
      const u = await s.users.create(newUser(), 5000);
      expect(await s.users.count()).toBe(before + 1);
      const big = Date.UTC(2100, 0, 1);
      await s.users.update(
        u.id,
        {
          displayName: 'New',
          passwordHash: 'h2',
          emailVerified: true,
          roles: ['admin'],
          banned: true,
          tokensValidAfter: big,
        },
        big,
      );
      const got = await s.users.findById(u.id);
      expect(got).toMatchObject({
        displayName: 'New',
        passwordHash: 'h2',
        emailVerified: true,
        roles: ['admin'],
        banned: true,
        tokensValidAfter: big,
        updatedAt: big,
        createdAt: 5000,
      });
      expect(typeof got!.tokensValidAfter).toBe('number');
      await s.users.update(u.id, { banned: false }, big + 1);
      expect(await s.users.findById(u.id)).toMatchObject({
        banned: false,
        displayName: 'New',
        updatedAt: big + 1,
      });
      expect(await s.users.changedSince(big)).toEqual([u.id]);
      expect(await s.users.changedSince(big + 2)).toEqual([]);
    });

    it('users: search matches %, _ and \\ literally, pages and counts', async () => {
      const tag = unique('q');
      const names = [`${tag}_a`, `${tag}xa`, `${tag}%b`, `${tag}\\c`];
      const ids: number[] = [];
      for (const n of names)
        ids.push(
          (
            await s.users.create(
              newUser({
                username: n,
                email: `${n.replace(/[%\\]/g, '')}m@example.com`,
              }),
              1,
            )
          ).id,
        );
      const all = await s.users.search(tag, 0, 50);
      expect(all.total).toBe(4);
      expect(all.users.map((u) => u.id)).toEqual(ids);
      expect(
        (await s.users.search(`${tag}_`, 0, 50)).users.map((u) => u.username),
      ).toEqual([`${tag}_a`]);
      expect(
        (await s.users.search(`${tag}%`, 0, 50)).users.map((u) => u.username),
      ).toEqual([`${tag}%b`]);
      expect(
        (await s.users.search(`${tag}\\`, 0, 50)).users.map((u) => u.username),
      ).toEqual([`${tag}\\c`]);
      expect((await s.users.search(tag.toUpperCase(), 0, 50)).total).toBe(4);
      const page = await s.users.search(tag, 1, 2);
      expect([page.total, page.users.map((u) => u.id)]).toEqual([
        4,
        ids.slice(1, 3),
      ]);
      expect(
        (await s.users.search(`${names[1]}m@EXAMPLE`, 0, 10)).users.map(
          (u) => u.id,
        ),
      ).toEqual([ids[1]]);
      const everyone = await s.users.search('', 0, 1000);
      expect(everyone.total).toBe(await s.users.count());
    });

    it('revocations: idempotent revoke, revokedSince, purge', async () => {
      const jti = unique('jti');
      expect(await s.revocations.isRevoked(jti)).toBe(false);
      await s.revocations.revoke(jti, 1, 2000, 10_000);
      await s.revocations.revoke(jti, 1, 2000, 10_500);
      expect(await s.revocations.isRevoked(jti)).toBe(true);
      const old = unique('jti');
      await s.revocations.revoke(old, 1, 500, 10_000);
      const since = await s.revocations.revokedSince(10_000, 1000);
      expect(since).toContain(jti);
      expect(since).not.toContain(old);
      expect(await s.revocations.revokedSince(10_001, 1000)).not.toContain(jti);
      expect(await s.revocations.purgeExpired(1000)).toBeGreaterThanOrEqual(1);
      expect(await s.revocations.isRevoked(old)).toBe(false);
      expect(await s.revocations.isRevoked(jti)).toBe(true);
    });

    it('apps: create, find, list, update, changedSince, unique client_id', async () => {
      const owner = await s.users.create(newUser(), 1);
      const a = await s.apps.create(
        newApp(owner.id, {
          clientId: 'my-app_1',
          scopes: ['a', 'b'],
          corsOrigins: ['https://x.example'],
        }),
        2000,
      );
      expect(a).toMatchObject({
        clientId: 'my-app_1',
        ownerId: owner.id,
        scopes: ['a', 'b'],
        redirectUris: ['https://a.example/cb'],
        corsOrigins: ['https://x.example'],
        clientType: 'confidential',
        secretHash: 'abc',
        status: 'active',
        createdAt: 2000,
        updatedAt: 2000,
      });
      expect(await s.apps.findById('my-app_1')).toEqual(a);
      expect(await s.apps.findById('MY-APP_1')).toBeUndefined();
      expect(
        await violation(
          s.apps.create(newApp(owner.id, { clientId: 'my-app_1' }), 1),
        ),
      ).toBe('client_id');
      const pub = await s.apps.create(
        newApp(owner.id, { clientType: 'public', secretHash: null }),
        3000,
      );
      expect(pub.secretHash).toBeNull();
      expect(
        (await s.apps.listByOwner(owner.id)).map((x) => x.clientId),
      ).toEqual(['my-app_1', pub.clientId]);
      expect(await s.apps.listByOwner(owner.id + 10_000)).toEqual([]);
      const updated = await s.apps.update(
        'my-app_1',
        {
          displayName: 'D',
          homepage: 'https://h',
          scopes: [],
          redirectUris: ['app.x:/cb'],
          corsOrigins: [],
          secretHash: null,
          status: 'disabled',
        },
        4000,
      );
      expect(updated).toMatchObject({
        displayName: 'D',
        homepage: 'https://h',
        scopes: [],
        redirectUris: ['app.x:/cb'],
        corsOrigins: [],
        secretHash: null,
        status: 'disabled',
        updatedAt: 4000,
        createdAt: 2000,
      });
      expect(
        await s.apps.update('no-such-app', { status: 'active' }, 1),
      ).toBeUndefined();
      const active = (await s.apps.listActive()).map((x) => x.clientId);
      expect(active).toContain(pub.clientId);
      expect(active).not.toContain('my-app_1');
      expect(await s.apps.changedSince(4000)).toEqual(['my-app_1']);
    });

    it('auth codes: create, find, consume once under 20 concurrent callers, recording the winning token, replay, purge', async () => {
      const base = {
        clientId: 'c',
        userId: 7,
        redirectUri: 'https://a/cb',
        scope: 'a b',
        codeChallenge: 'ch',
        codeChallengeMethod: 'S256',
        createdAt: 1000,
      };
      await s.codes.create({ ...base, codeHash: 'code-1', expiresAt: 100_000 });
      expect(await s.codes.findByHash('code-1')).toEqual({
        ...base,
        codeHash: 'code-1',
        expiresAt: 100_000,
        usedAt: null,
        tokenJti: null,
        tokenExp: null,
        replayedAt: null,
        flow: 'v1',
        nonce: null,
        authTime: null,
        redirectUriGiven: true,
        refreshFamily: null,
        amr: null,
        sessionId: null,
      });
      expect(await s.codes.findByHash('nope')).toBeUndefined();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          s.codes.consume('code-1', 2000, { jti: `jti-${i}`, exp: 99 }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      // The winner's token, and only the winner's, is recorded by the same UPDATE.
      expect(await s.codes.findByHash('code-1')).toMatchObject({
        usedAt: 2000,
        tokenJti: `jti-${winner}`,
        tokenExp: 99,
        replayedAt: null,
      });
      expect(
        await s.codes.consume('code-1', 2001, { jti: 'late', exp: 99 }),
      ).toBe(false);
      expect((await s.codes.findByHash('code-1'))?.tokenJti).toBe(
        `jti-${winner}`,
      );
      await s.codes.create({
        ...base,
        codeHash: 'code-exp',
        expiresAt: 3000,
        codeChallenge: null,
        codeChallengeMethod: null,
      });
      expect(
        await s.codes.consume('code-exp', 3000, { jti: 'j', exp: 1 }),
      ).toBe(false);
      expect((await s.codes.findByHash('code-exp'))?.tokenJti).toBeNull();
      expect(await s.codes.consume('nope', 1, { jti: 'j', exp: 1 })).toBe(
        false,
      );
      expect(await s.codes.markReplayed('code-1', 2500)).toMatchObject({
        tokenJti: `jti-${winner}`,
        replayedAt: 2500,
      });
      expect(await s.codes.markReplayed('nope', 1)).toBeUndefined();
      expect(await s.codes.purgeExpired(3001)).toBe(1);
      expect(await s.codes.findByHash('code-exp')).toBeUndefined();
      expect(await s.codes.findByHash('code-1')).toBeDefined();
    });

    it('device codes: unique user code, conditional transitions, polls, release, purge', async () => {
      const d = {
        deviceCodeHash: 'dev-1',
        userCode: '123456',
        clientId: 'c',
        interval: 5,
        expiresAt: 10_000,
        createdAt: 1000,
      };
      await s.devices.create(d);
      expect(await s.devices.findByHash('dev-1')).toEqual({
        ...d,
        status: 'pending',
        userId: null,
        lastPollAt: null,
        scope: null,
      });
      expect(
        await violation(s.devices.create({ ...d, deviceCodeHash: 'dev-2' })),
      ).toBe('user_code');
      expect(
        (await s.devices.findLiveByUserCode('123456', 9999))?.deviceCodeHash,
      ).toBe('dev-1');
      expect(
        await s.devices.findLiveByUserCode('123456', 10_000),
      ).toBeUndefined();
      const approvals = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.devices.transition('dev-1', 'pending', 'approved', 40 + i),
        ),
      );
      expect(approvals.filter(Boolean)).toHaveLength(1);
      const approved = await s.devices.findByHash('dev-1');
      expect(approved?.status).toBe('approved');
      expect(approved?.userId).toBe(40 + approvals.indexOf(true));
      expect(await s.devices.transition('dev-1', 'pending', 'denied')).toBe(
        false,
      );
      expect(await s.devices.transition('dev-1', 'approved', 'used')).toBe(
        true,
      );
      expect(await s.devices.findByHash('dev-1')).toMatchObject({
        status: 'used',
        userId: approved?.userId,
      });
      await s.devices.recordPoll('dev-1', 5000, 10);
      expect(await s.devices.findByHash('dev-1')).toMatchObject({
        lastPollAt: 5000,
        interval: 10,
      });
      // A used code releases its user code even before expiry; a live pending one does not.
      await s.devices.create({
        ...d,
        deviceCodeHash: 'dev-3',
        userCode: '654321',
      });
      await s.devices.releaseUserCode('654321', 2000);
      expect(await s.devices.findByHash('dev-3')).toBeDefined();
      await s.devices.releaseUserCode('123456', 2000);
      expect(await s.devices.findByHash('dev-1')).toBeUndefined();
      await s.devices.create({ ...d, deviceCodeHash: 'dev-4' });
      await s.devices.releaseUserCode('654321', 10_000);
      expect(await s.devices.findByHash('dev-3')).toBeUndefined();
      expect(await s.devices.purgeExpired(10_001)).toBe(1);
      expect(await s.devices.findByHash('dev-4')).toBeUndefined();
    });

    it('e-mail codes: latest, lastSentAt, attempts, markUsed once, purge', async () => {
      const email = `${unique('e')}@Example.com`;
      expect(await s.emailCodes.lastSentAt(email)).toBeUndefined();
      await s.emailCodes.create({
        email,
        purpose: 'login',
        codeHash: 'h1',
        expiresAt: 10_000,
        createdAt: 1000,
      });
      await s.emailCodes.create({
        email,
        purpose: 'login',
        codeHash: 'h2',
        expiresAt: 10_000,
        createdAt: 2000,
      });
      await s.emailCodes.create({
        email,
        purpose: 'verify',
        codeHash: 'h3',
        expiresAt: 20_000,
        createdAt: 3000,
      });
      const latest = await s.emailCodes.findLatest(
        email.toUpperCase(),
        'login',
        5000,
      );
      expect(latest).toMatchObject({
        email: email.toLowerCase(),
        purpose: 'login',
        codeHash: 'h2',
        attempts: 0,
        usedAt: null,
        expiresAt: 10_000,
        createdAt: 2000,
      });
      expect(
        await s.emailCodes.findLatest(email, 'reset_password', 5000),
      ).toBeUndefined();
      expect(
        await s.emailCodes.findLatest(email, 'login', 10_000),
      ).toBeUndefined();
      expect(await s.emailCodes.lastSentAt(email.toLowerCase())).toBe(3000);
      expect(await s.emailCodes.addAttempt(latest!.id)).toBe(1);
      expect(await s.emailCodes.addAttempt(latest!.id)).toBe(2);
      const marks = await Promise.all(
        Array.from({ length: 10 }, () =>
          s.emailCodes.markUsed(latest!.id, 6000),
        ),
      );
      expect(marks.filter(Boolean)).toHaveLength(1);
      expect(await s.emailCodes.findLatest(email, 'login', 5000)).toMatchObject(
        { codeHash: 'h1' },
      );
      expect(await s.emailCodes.markUsed(latest!.id, 7000)).toBe(false);
      expect(await s.emailCodes.purgeExpired(10_001)).toBeGreaterThanOrEqual(2);
      expect(
        await s.emailCodes.findLatest(email, 'verify', 5000),
      ).toMatchObject({ codeHash: 'h3' });
    });

    it('audit: append, filter, page newest first', async () => {
      const actor = unique('actor');
      await s.audit.append({
        at: 1,
        actor,
        ip: '::1',
        action: 'user.ban',
        target: 't1',
        detail: { banned: true },
      });
      await s.audit.append({
        at: 2,
        actor,
        ip: null,
        action: 'user.roles',
        target: 't2',
        detail: { roles: ['a'] },
      });
      await s.audit.append({
        at: 3,
        actor: null,
        ip: null,
        action: 'user.ban',
        target: 't1',
        detail: {},
      });
      const mine = await s.audit.list({ actor }, 0, 10);
      expect(mine.total).toBe(2);
      expect(mine.entries.map((e) => e.action)).toEqual([
        'user.roles',
        'user.ban',
      ]);
      expect(mine.entries[1]).toMatchObject({
        at: 1,
        actor,
        ip: '::1',
        target: 't1',
        detail: { banned: true },
      });
      expect(
        (await s.audit.list({ actor, action: 'user.ban' }, 0, 10)).total,
      ).toBe(1);
      const paged = await s.audit.list({ actor }, 1, 1);
      expect([paged.total, paged.entries.map((e) => e.at)]).toEqual([2, [1]]);
      expect(
        (await s.audit.list({ target: 't1', action: 'user.ban' }, 0, 10)).total,
      ).toBeGreaterThanOrEqual(2);
    });

    it('sessions: create, list live newest first, touch, extend, end once, end all but one, per day, purge', async () => {
      const u = await s.users.create(newUser(), 1);
      const base = {
        userId: u.id,
        app: 'account-center',
        ip: '::1',
        userAgent: 'UA',
      };
      const day = 86_400_000;
      await s.sessions.create({
        ...base,
        id: unique('sa'),
        createdAt: 10 * day,
        lastUsedAt: 10 * day,
        expiresAt: 20 * day,
      });
      const b = unique('sb');
      await s.sessions.create({
        ...base,
        id: b,
        createdAt: 10 * day + 5,
        lastUsedAt: 10 * day + 5,
        expiresAt: 20 * day,
      });
      const c = unique('sc');
      await s.sessions.create({
        ...base,
        id: c,
        createdAt: 11 * day,
        lastUsedAt: 11 * day,
        expiresAt: 12 * day,
      });
      expect(
        (await s.sessions.listLive(u.id, 11 * day, 10)).map((x) => x.id),
      ).toEqual([c, b, expect.any(String)]);
      expect(await s.sessions.listLive(u.id, 20 * day, 10)).toEqual([]);
      await s.sessions.touchMany([b, 'no-such-session'], 15 * day);
      await s.sessions.touchMany([b], 14 * day);
      await s.sessions.touchMany([], 16 * day);
      await s.sessions.extend(c, 30 * day);
      await s.sessions.extend(c, 25 * day);
      expect(await s.sessions.findById(b)).toMatchObject({
        lastUsedAt: 15 * day,
        endedAt: null,
        ip: '::1',
        userAgent: 'UA',
      });
      expect((await s.sessions.findById(c))?.expiresAt).toBe(30 * day);
      const ends = await Promise.all(
        Array.from({ length: 5 }, () => s.sessions.end(b, 16 * day)),
      );
      expect(ends.filter(Boolean)).toHaveLength(1);
      expect(await s.sessions.endAllOf(u.id, 16 * day, c)).toHaveLength(1);
      expect(
        (await s.sessions.listLive(u.id, 16 * day, 10)).map((x) => x.id),
      ).toEqual([c]);
      expect(await s.sessions.startedPerDay(10 * day)).toEqual(
        expect.arrayContaining([
          { day: '1970-01-11', count: 2 },
          { day: '1970-01-12', count: 1 },
        ]),
      );
      expect(await s.sessions.purgeExpired(21 * day)).toBeGreaterThanOrEqual(2);
      expect(await s.sessions.findById(b)).toBeUndefined();
      await s.sessions.deleteAllOf(u.id);
      expect(await s.sessions.findById(c)).toBeUndefined();
    });

    it('users: update moves username and e-mail, refusing taken ones; apps: search by name, id, owner', async () => {
      const u = await s.users.create(newUser(), 1);
      const v = await s.users.create(newUser(), 1);
      const name = unique('Moved');
      await s.users.update(
        u.id,
        { username: name, email: `${name}@Example.org` },
        2,
      );
      expect(
        (await s.users.findByEmail(`${name.toLowerCase()}@example.org`))?.id,
      ).toBe(u.id);
      expect((await s.users.findByUsername(name.toLowerCase()))?.id).toBe(u.id);
      expect(
        await violation(
          s.users.update(v.id, { email: `${name}@EXAMPLE.org` }, 3),
        ),
      ).toBe('email');
      const app = await s.apps.create(
        newApp(v.id, { displayName: `Find ${name}` }),
        5,
      );
      expect(
        (await s.apps.search(name.toLowerCase(), 0, 10)).apps.map(
          (a) => a.clientId,
        ),
      ).toEqual([app.clientId]);
      expect(
        (await s.apps.search(app.clientId.toUpperCase(), 0, 10)).total,
      ).toBe(1);
      expect(
        (await s.apps.search(v.username, 0, 10)).apps.map((a) => a.clientId),
      ).toEqual([app.clientId]);
      expect((await s.apps.search('%', 0, 10)).total).toBe(0);
      const disabled = await s.apps.update(
        app.clientId,
        { status: 'disabled', statusReason: 'spam', statusChangedAt: 9 },
        9,
      );
      expect(disabled).toMatchObject({
        status: 'disabled',
        statusReason: 'spam',
        statusChangedAt: 9,
      });
    });

    // Last, so the purge counts of the seed tests above see only their own rows.
    oidcStorageSuite(() => s);
  });
}
