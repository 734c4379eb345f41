import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { newApp, newUser, violation } from './suite-helpers.js';

/** Registered apps: creating, listing and updating them. */
export function appsStorageSuite(storage: () => Storage): void {
  it('apps: create, find, list, update, changedSince, unique client_id', async () => {
    const s = storage();
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
    expect((await s.apps.listByOwner(owner.id)).map((x) => x.clientId)).toEqual(
      ['my-app_1', pub.clientId],
    );
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
}
