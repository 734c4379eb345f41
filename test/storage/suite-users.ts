import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { newApp, newUser, unique, violation } from './suite-helpers.js';

/** Users: creating, importing, updating and searching them. */
export function usersStorageSuite(storage: () => Storage): void {
  it('users: create, find, unique ignoring case', async () => {
    const s = storage();
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
    const s = storage();
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
    const s = storage();
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
    const s = storage();
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

  it('users: update moves username and e-mail, refusing taken ones; apps: search by name, id, owner', async () => {
    const s = storage();
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
    expect((await s.apps.search(app.clientId.toUpperCase(), 0, 10)).total).toBe(
      1,
    );
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
}
