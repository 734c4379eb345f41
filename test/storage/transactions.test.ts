import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStorage } from '../../src/app/sql-storage.js';
import type { Storage } from '../../src/app/storage.js';
import { UniqueViolation } from '../../src/platform/sql/unique-violation.js';
import { freshPostgresSchema, isPostgresUrl } from '../helpers/db.js';

/**
 * What the use cases rely on from storage: a row any request reads has committed (a second
 * connection, as a second process would, reads it too), and the writes of `atomically` commit
 * together or not at all.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
let url: string;
let dispose: () => Promise<void>;
let s: Storage;
let other: Storage;

beforeAll(async () => {
  if (isPostgresUrl(pgUrl)) {
    const fresh = await freshPostgresSchema(pgUrl);
    url = fresh.url;
    dispose = fresh.dispose;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'ac-transactions-'));
    url = `sqlite:${join(dir, 'test.db')}`;
    dispose = async () => rmSync(dir, { recursive: true, force: true });
  }
  s = await createSqlStorage(url, { pgPoolMax: 4 });
  await s.migrate();
  other = await createSqlStorage(url, { pgPoolMax: 2 });
});
afterAll(async () => {
  await other?.close();
  await s?.close();
  await dispose?.();
});

let seq = 0;
const name = () => `tx${process.pid}x${++seq}`;
const newUser = (username = name()) => ({
  username,
  email: `${username}@example.com`,
  displayName: username,
  passwordHash: 'h',
  emailVerified: false,
  roles: ['player'],
});

describe(`storage transactions (${isPostgresUrl(pgUrl) ? 'postgres' : 'sqlite'})`, () => {
  it('a row a concurrent request reads has committed: another connection reads it too', async () => {
    for (let i = 0; i < 20; i++) {
      const username = name();
      const write = s.users.create(newUser(username), 1000);
      const seen = await s.users.findByUsername(username);
      if (seen !== undefined)
        expect(await other.users.findByUsername(username)).toMatchObject({
          id: seen.id,
        });
      await write;
    }
  });

  it('atomically: writes commit together, and a failure rolls back the ones before it', async () => {
    const taken = name();
    await s.users.create(newUser(taken), 1000);
    await s.invites.create({
      id: name(),
      codeHash: 'one-use',
      uses: 1,
      used: 0,
      expiresAt: null,
      createdBy: 'admin',
      createdAt: 1000,
    });
    // The use is taken, then the account fails on its name: the use is not kept.
    await expect(
      s.atomically(async (tx) => {
        expect(await tx.invites.takeUse('one-use', 2000)).toBe(true);
        return tx.users.create(newUser(taken), 2000);
      }),
    ).rejects.toBeInstanceOf(UniqueViolation);
    expect((await other.invites.list()).find((i) => i.uses === 1)?.used).toBe(
      0,
    );
    // Both writes at once.
    const created = await s.atomically(async (tx) => {
      expect(await tx.invites.takeUse('one-use', 2000)).toBe(true);
      return tx.users.create(newUser(), 2000);
    });
    expect(await other.users.findById(created.id)).toMatchObject({
      username: created.username,
    });
    expect((await other.invites.list()).find((i) => i.uses === 1)?.used).toBe(
      1,
    );
  });

  it('atomically: a code used up and its refresh token stored both, or neither', async () => {
    const code = {
      clientId: 'c',
      userId: 1,
      redirectUri: 'https://a.example/cb',
      scope: 'openid',
      codeChallenge: null,
      codeChallengeMethod: null,
      expiresAt: 9000,
      createdAt: 1000,
      flow: 'oidc' as const,
    };
    await s.codes.create({ ...code, codeHash: 'code-1' });
    const refresh = {
      familyId: 'fam-1',
      clientId: 'c',
      userId: 1,
      scope: 'openid',
      authTime: 1000,
      createdAt: 2000,
      expiresAt: 9_000_000,
    };
    await expect(
      s.atomically(async (tx) => {
        expect(
          await tx.codes.consumeOidc('code-1', 2000, {
            jti: 'j1',
            exp: 9,
            refreshFamily: 'fam-1',
          }),
        ).toBe(true);
        await tx.refreshTokens.create({ ...refresh, tokenHash: 'r1' });
        throw new Error('lost before the answer');
      }),
    ).rejects.toThrow('lost before the answer');
    expect(await other.codes.findByHash('code-1')).toMatchObject({
      usedAt: null,
      tokenJti: null,
    });
    expect(await other.refreshTokens.findByHash('r1')).toBeUndefined();
    // Nested calls join the transaction they are in.
    await s.atomically(async (tx) => {
      expect(
        await tx.codes.consumeOidc('code-1', 2000, {
          jti: 'j2',
          exp: 9,
          refreshFamily: 'fam-1',
        }),
      ).toBe(true);
      await tx.atomically((inner) =>
        inner.refreshTokens.create({ ...refresh, tokenHash: 'r2' }),
      );
    });
    expect(await other.codes.findByHash('code-1')).toMatchObject({
      usedAt: 2000,
      tokenJti: 'j2',
    });
    expect(await other.refreshTokens.findByHash('r2')).toMatchObject({
      familyId: 'fam-1',
    });
  });

  it('a change and the outbox rows announcing it commit together: a refused change queues no event', async () => {
    const endpoint = name();
    await s.webhooks.create({
      id: endpoint,
      url: 'https://hooks.example/in',
      description: '',
      events: [],
      enabled: true,
      secretEnc: 'x',
      failingSince: null,
      disabledAt: null,
      createdAt: 1000,
      updatedAt: 1000,
    });
    const holder = await s.users.create(newUser(), 1000);
    const mover = await s.users.create(newUser(), 1000);
    const event = (type: string) => ({
      type,
      orderKey: `user:${mover.id}`,
      data: { uid: mover.id },
    });
    await expect(
      s.users.update(mover.id, { email: holder.email }, 2000, [
        event('user.updated'),
      ]),
    ).rejects.toBeInstanceOf(UniqueViolation);
    expect(await other.outbox.recent(endpoint, 10)).toEqual([]);
    await s.users.update(mover.id, { displayName: 'moved' }, 3000, [
      event('user.updated'),
    ]);
    expect(
      (await other.outbox.recent(endpoint, 10)).map((d) => d.eventType),
    ).toEqual(['user.updated']);
  });

  it('atomically: many at once on one code, exactly one uses it up', async () => {
    const code = {
      clientId: 'c',
      userId: 1,
      redirectUri: 'https://a.example/cb',
      scope: 'openid',
      codeChallenge: null,
      codeChallengeMethod: null,
      expiresAt: 9000,
      createdAt: 1000,
      flow: 'oidc' as const,
    };
    await s.codes.create({ ...code, codeHash: 'code-race' });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.atomically(async (tx) => {
          if (
            !(await tx.codes.consumeOidc('code-race', 2000, {
              jti: `j${i}`,
              exp: 9,
              refreshFamily: `f${i}`,
            }))
          )
            return false;
          await tx.refreshTokens.create({
            tokenHash: `race-${i}`,
            familyId: `f${i}`,
            clientId: 'c',
            userId: 1,
            scope: 'openid',
            authTime: 1000,
            createdAt: 2000,
            expiresAt: 9_000_000,
          });
          return true;
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(
      await other.refreshTokens.findByHash(`race-${winner}`),
    ).toBeDefined();
    for (let i = 0; i < 10; i++)
      if (i !== winner)
        expect(
          await other.refreshTokens.findByHash(`race-${i}`),
        ).toBeUndefined();
  });
});
