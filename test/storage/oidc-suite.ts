import { expect, it } from 'vitest';
import type { Storage } from '../../src/features/storage.js';

let seq = 0;
const unique = (p: string) => `${p}${process.pid}o${++seq}`;

/** The OpenID Connect repositories (migration 002-oidc) against one backend. */
export function oidcStorageSuite(storage: () => Storage): void {
  it('oidc: app client fields default by client type and update', async () => {
    const s = storage();
    const base = {
      ownerId: 1,
      displayName: 'A',
      homepage: 'https://a.example',
      scopes: ['profile'],
      redirectUris: ['https://a.example/cb'],
      corsOrigins: [],
      status: 'active',
    };
    const conf = await s.apps.create(
      {
        ...base,
        clientId: unique('c'),
        clientType: 'confidential',
        secretHash: 'x',
      },
      1,
    );
    expect(conf).toMatchObject({
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      postLogoutRedirectUris: [],
    });
    const pub = await s.apps.create(
      {
        ...base,
        clientId: unique('p'),
        clientType: 'public',
        secretHash: null,
      },
      1,
    );
    expect(pub.tokenEndpointAuthMethod).toBe('none');
    const custom = await s.apps.create(
      {
        ...base,
        clientId: unique('x'),
        clientType: 'confidential',
        secretHash: 'x',
        grantTypes: ['client_credentials'],
        tokenEndpointAuthMethod: 'client_secret_post',
        postLogoutRedirectUris: ['https://a.example/bye'],
      },
      1,
    );
    expect(await s.apps.findById(custom.clientId)).toEqual(custom);
    const updated = await s.apps.update(
      conf.clientId,
      {
        grantTypes: ['authorization_code'],
        tokenEndpointAuthMethod: 'client_secret_post',
        postLogoutRedirectUris: ['https://a.example/out'],
      },
      2,
    );
    expect(updated).toMatchObject({
      grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'client_secret_post',
      postLogoutRedirectUris: ['https://a.example/out'],
      displayName: 'A',
    });
  });

  it('oidc: codes carry their flow; each consume takes only its own flow, once, recording the refresh family', async () => {
    const s = storage();
    const base = {
      clientId: 'c',
      userId: 7,
      redirectUri: 'https://a/cb',
      scope: 'openid',
      codeChallenge: null,
      codeChallengeMethod: null,
      createdAt: 1000,
      expiresAt: 100_000,
    };
    const h = unique('oc');
    await s.codes.create({
      ...base,
      codeHash: h,
      flow: 'oidc',
      nonce: 'n-1',
      authTime: 900,
      redirectUriGiven: false,
    });
    expect(await s.codes.findByHash(h)).toMatchObject({
      flow: 'oidc',
      nonce: 'n-1',
      authTime: 900,
      redirectUriGiven: false,
      refreshFamily: null,
    });
    expect(await s.codes.consume(h, 2000, { jti: 'seed', exp: 1 })).toBe(false);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.codes.consumeOidc(h, 2000, {
          jti: `j${i}`,
          exp: 9,
          refreshFamily: `f${i}`,
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const w = results.indexOf(true);
    expect(await s.codes.findByHash(h)).toMatchObject({
      usedAt: 2000,
      tokenJti: `j${w}`,
      refreshFamily: `f${w}`,
    });
    expect(await s.codes.markReplayed(h, 3000)).toMatchObject({
      tokenJti: `j${w}`,
      refreshFamily: `f${w}`,
      replayedAt: 3000,
    });
    const seed = unique('sc');
    await s.codes.create({ ...base, codeHash: seed });
    expect(
      await s.codes.consumeOidc(seed, 2000, {
        jti: 'x',
        exp: 1,
        refreshFamily: null,
      }),
    ).toBe(false);
    expect(await s.codes.consume(seed, 2000, { jti: 'x', exp: 1 })).toBe(true);
    const expired = unique('ec');
    await s.codes.create({
      ...base,
      codeHash: expired,
      flow: 'oidc',
      expiresAt: 1500,
    });
    expect(
      await s.codes.consumeOidc(expired, 1500, {
        jti: 'x',
        exp: 1,
        refreshFamily: null,
      }),
    ).toBe(false);
  });

  it('oidc: device codes keep the scope asked', async () => {
    const s = storage();
    const h = unique('d');
    await s.devices.create({
      deviceCodeHash: h,
      userCode: String(100000 + (seq % 800000)),
      clientId: 'c',
      interval: 5,
      expiresAt: 10_000,
      createdAt: 1,
      scope: 'openid profile',
    });
    expect((await s.devices.findByHash(h))?.scope).toBe('openid profile');
  });

  it('oidc: signing keys, one winner per generation, older keys retired, newest first', async () => {
    const s = storage();
    const key = (generation: number, kid: string) => ({
      kid,
      generation,
      alg: 'RS256',
      publicJwk: '{}',
      privateJwkEnc: 'enc',
      createdAt: generation * 1000,
    });
    expect(await s.signingKeys.current()).toBeUndefined();
    const first = await Promise.all([
      s.signingKeys.insert(key(1, 'k1a')),
      s.signingKeys.insert(key(1, 'k1b')),
      s.signingKeys.insert(key(1, 'k1c')),
    ]);
    expect(first.filter(Boolean)).toHaveLength(1);
    const winner = ['k1a', 'k1b', 'k1c'][first.indexOf(true)];
    expect(await s.signingKeys.current()).toMatchObject({
      kid: winner,
      generation: 1,
      retiredAt: null,
      privateJwkEnc: 'enc',
      publicJwk: '{}',
    });
    expect(await s.signingKeys.insert(key(2, 'k2'))).toBe(true);
    const listed = await s.signingKeys.list(5);
    expect(listed.map((k) => [k.kid, k.retiredAt])).toEqual([
      ['k2', null],
      [winner, 2000],
    ]);
    expect(await s.signingKeys.insert(key(2, 'k2-late'))).toBe(false);
    expect((await s.signingKeys.list(1)).map((k) => k.kid)).toEqual(['k2']);
  });

  it('oidc: refresh rotation has one winner among 20, revoked family and expiry stop use, revoke by user+client', async () => {
    const s = storage();
    const fam = unique('fam');
    await s.refreshTokens.createFamily({
      familyId: fam,
      userId: 5,
      clientId: 'rc',
      createdAt: 1000,
    });
    expect(await s.refreshTokens.findFamily(fam)).toEqual({
      familyId: fam,
      userId: 5,
      clientId: 'rc',
      createdAt: 1000,
      revokedAt: null,
    });
    const t = {
      familyId: fam,
      clientId: 'rc',
      userId: 5,
      scope: 'openid offline_access',
      authTime: 900,
      createdAt: 1000,
      expiresAt: 50_000,
    };
    const h1 = unique('rt');
    await s.refreshTokens.create({ ...t, tokenHash: h1 });
    expect(await s.refreshTokens.findByHash(h1)).toEqual({
      ...t,
      tokenHash: h1,
      usedAt: null,
      revokedAt: null,
      amr: null,
    });
    const federated = unique('rt');
    await s.refreshTokens.create({ ...t, tokenHash: federated, amr: 'fed' });
    expect((await s.refreshTokens.findByHash(federated))?.amr).toBe('fed');
    const uses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.refreshTokens.use(h1, 2000, `successor-${i}`),
      ),
    );
    expect(uses.filter(Boolean)).toHaveLength(1);
    expect(uses.find(Boolean)).toMatchObject({
      tokenHash: h1,
      usedAt: 2000,
      scope: 'openid offline_access',
    });
    expect(await s.refreshTokens.use(h1, 2001, 'late')).toBeUndefined();
    const h2 = unique('rt');
    await s.refreshTokens.create({ ...t, tokenHash: h2, createdAt: 1500 });
    expect((await s.refreshTokens.latestInFamily(fam))?.tokenHash).toBe(h2);
    expect(await s.refreshTokens.latestInFamily('no-family')).toBeUndefined();
    // Within one millisecond the token not used yet is the newer, whatever the hashes' order.
    const tie = unique('fam');
    await s.refreshTokens.createFamily({
      familyId: tie,
      userId: 5,
      clientId: 'rc',
      createdAt: 7000,
    });
    const [used, successor] = [`zz-${unique('rt')}`, `aa-${unique('rt')}`];
    await s.refreshTokens.create({
      ...t,
      familyId: tie,
      tokenHash: used,
      createdAt: 7000,
    });
    expect(await s.refreshTokens.use(used, 7000, successor)).toMatchObject({
      tokenHash: used,
    });
    await s.refreshTokens.create({
      ...t,
      familyId: tie,
      tokenHash: successor,
      createdAt: 7000,
    });
    expect((await s.refreshTokens.latestInFamily(tie))?.tokenHash).toBe(
      successor,
    );
    expect(
      await s.refreshTokens.use(h2, 50_000, 'after-expiry'),
    ).toBeUndefined();
    const h3 = unique('rt');
    await s.refreshTokens.create({ ...t, tokenHash: h3 });
    expect(await s.refreshTokens.revokeFamily(fam, 3000)).toBe(true);
    expect(await s.refreshTokens.revokeFamily(fam, 3001)).toBe(false);
    expect(
      await s.refreshTokens.use(h3, 3002, 'after-revocation'),
    ).toBeUndefined();
    expect((await s.refreshTokens.findFamily(fam))?.revokedAt).toBe(3000);
    const a = unique('fam');
    const b = unique('fam');
    const other = unique('fam');
    for (const [id, client] of [
      [a, 'rc2'],
      [b, 'rc2'],
      [other, 'rc3'],
    ] as const)
      await s.refreshTokens.createFamily({
        familyId: id,
        userId: 6,
        clientId: client,
        createdAt: 1,
      });
    expect(
      (await s.refreshTokens.revokeFamiliesOf(6, 'rc2', 10)).sort(),
    ).toEqual([a, b].sort());
    expect(await s.refreshTokens.revokeFamiliesOf(6, 'rc2', 11)).toEqual([]);
    expect((await s.refreshTokens.findFamily(other))?.revokedAt).toBeNull();
    // The families a center sign-in authorized end with it, and only that person's.
    const [fromSession, alsoFromSession, elsewhere] = [
      unique('fam'),
      unique('fam'),
      unique('fam'),
    ];
    const sid = unique('sid');
    await s.refreshTokens.createFamily({
      familyId: fromSession,
      userId: 8,
      clientId: 'rc2',
      createdAt: 1,
      sessionId: sid,
    });
    await s.refreshTokens.createFamily({
      familyId: alsoFromSession,
      userId: 8,
      clientId: 'rc3',
      createdAt: 1,
      sessionId: sid,
    });
    await s.refreshTokens.createFamily({
      familyId: elsewhere,
      userId: 8,
      clientId: 'rc2',
      createdAt: 1,
      sessionId: unique('sid'),
    });
    // One granted offline_access outlives the sign-in.
    const offline = unique('fam');
    await s.refreshTokens.createFamily({
      familyId: offline,
      userId: 8,
      clientId: 'rc3',
      createdAt: 1,
      sessionId: sid,
    });
    await s.refreshTokens.create({
      tokenHash: unique('h'),
      familyId: offline,
      clientId: 'rc3',
      userId: 8,
      scope: 'openid offline_access',
      authTime: 1,
      createdAt: 1,
      expiresAt: 99_000,
    });
    expect(await s.refreshTokens.revokeFamiliesOfSession(sid, 9, 12)).toEqual(
      [],
    );
    expect(
      (await s.refreshTokens.revokeFamiliesOfSession(sid, 8, 12)).sort(),
    ).toEqual([fromSession, alsoFromSession].sort());
    expect(await s.refreshTokens.revokeFamiliesOfSession(sid, 8, 13)).toEqual(
      [],
    );
    expect((await s.refreshTokens.findFamily(elsewhere))?.revokedAt).toBeNull();
    expect((await s.refreshTokens.findFamily(offline))?.revokedAt).toBeNull();
    expect(await s.refreshTokens.purgeExpired(50_001)).toBeGreaterThanOrEqual(
      3,
    );
    expect(await s.refreshTokens.findByHash(h3)).toBeUndefined();
  });

  it('oidc: a presented refresh token shows how far its rotation had got: unused, used with its successor pending, answered', async () => {
    const s = storage();
    const fam = unique('pfam');
    await s.refreshTokens.createFamily({
      familyId: fam,
      userId: 5,
      clientId: 'rc',
      createdAt: 1000,
    });
    const t = {
      familyId: fam,
      clientId: 'rc',
      userId: 5,
      scope: 'openid',
      authTime: 900,
      createdAt: 1000,
      expiresAt: 50_000,
    };
    const [first, second] = [unique('prt'), unique('prt')];
    await s.refreshTokens.create({ ...t, tokenHash: first });
    expect(await s.refreshTokens.findPresented(first)).toEqual({
      ...t,
      tokenHash: first,
      usedAt: null,
      revokedAt: null,
      amr: null,
      successorHash: null,
      successorStored: false,
    });
    expect(
      await s.refreshTokens.findPresented('no-such-token'),
    ).toBeUndefined();
    // Used, the successor named but not stored yet: the rotation is still running.
    expect(await s.refreshTokens.use(first, 1000, second)).toMatchObject({
      tokenHash: first,
      usedAt: 1000,
    });
    expect(await s.refreshTokens.findPresented(first)).toMatchObject({
      usedAt: 1000,
      successorHash: second,
      successorStored: false,
    });
    // Within the same millisecond, once the successor is stored its rotation has answered.
    await s.refreshTokens.create({ ...t, tokenHash: second });
    expect(await s.refreshTokens.findPresented(first)).toMatchObject({
      successorHash: second,
      successorStored: true,
    });
    expect(await s.refreshTokens.findPresented(second)).toMatchObject({
      usedAt: null,
      successorHash: null,
      successorStored: false,
    });
    // findByHash keeps its shape.
    expect(await s.refreshTokens.findByHash(first)).toEqual({
      ...t,
      tokenHash: first,
      usedAt: 1000,
      revokedAt: null,
      amr: null,
    });
  });

  it('oidc: live families of a user: unrevoked, after the cut-off, with an unexpired token; last use is the newest token', async () => {
    const s = storage();
    // A user id no other run of this suite uses (the PostgreSQL database outlives runs).
    const uid = 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
    const [live, older, revoked, expired, cutOff, empty] = [
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
    ].map((k) => unique(`lf${k}`)) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const fam = async (
      id: string,
      createdAt: number,
      tokens: Array<[number, number]>,
    ) => {
      await s.refreshTokens.createFamily({
        familyId: id,
        userId: uid,
        clientId: 'lc',
        createdAt,
      });
      for (const [createdAt2, expiresAt] of tokens) {
        await s.refreshTokens.create({
          tokenHash: unique('lt'),
          familyId: id,
          clientId: 'lc',
          userId: uid,
          scope: 'openid',
          authTime: createdAt,
          createdAt: createdAt2,
          expiresAt,
        });
      }
    };
    await fam(live, 3000, [
      [3000, 9000],
      [4500, 10_000],
    ]);
    await fam(older, 2500, [[2500, 9000]]);
    await fam(revoked, 2600, [[2600, 9000]]);
    await s.refreshTokens.revokeFamily(revoked, 2700);
    await fam(expired, 2700, [[2700, 4000]]);
    await fam(cutOff, 1000, [[1000, 9000]]);
    await fam(empty, 2800, []);
    const listed = await s.refreshTokens.listLiveFamilies(uid, 5000, 2000, 10);
    expect(listed).toEqual([
      { familyId: live, clientId: 'lc', createdAt: 3000, lastUsedAt: 4500 },
      { familyId: older, clientId: 'lc', createdAt: 2500, lastUsedAt: 2500 },
    ]);
    expect(await s.refreshTokens.listLiveFamilies(uid, 5000, 2000, 1)).toEqual([
      listed[0],
    ]);
    expect(
      await s.refreshTokens.listLiveFamilies(uid + 1, 5000, 0, 10),
    ).toEqual([]);
    // Revoking "all live" takes exactly the listed ones, once.
    expect(
      (await s.refreshTokens.revokeLiveFamiliesOf(uid, 5000, 2000)).sort(),
    ).toEqual([live, older].sort());
    expect(await s.refreshTokens.revokeLiveFamiliesOf(uid, 5000, 2000)).toEqual(
      [],
    );
    expect(await s.refreshTokens.listLiveFamilies(uid, 5000, 2000, 10)).toEqual(
      [],
    );
    expect((await s.refreshTokens.findFamily(cutOff))?.revokedAt).toBeNull();
  });

  it('oidc: consents upsert the scope set per user and client, list newest first, delete', async () => {
    const s = storage();
    const c1 = unique('cc');
    const c2 = unique('cc');
    expect(await s.consents.find(9, c1)).toBeUndefined();
    expect(await s.consents.upsert(9, c1, ['openid'], 100)).toEqual({
      userId: 9,
      clientId: c1,
      scopes: ['openid'],
      createdAt: 100,
      updatedAt: 100,
    });
    expect(await s.consents.upsert(9, c1, ['openid', 'email'], 200)).toEqual({
      userId: 9,
      clientId: c1,
      scopes: ['openid', 'email'],
      createdAt: 100,
      updatedAt: 200,
    });
    await Promise.all([
      s.consents.upsert(9, c2, ['profile'], 300),
      s.consents.upsert(9, c2, ['profile'], 300),
    ]);
    expect((await s.consents.listByUser(9)).map((c) => c.clientId)).toEqual([
      c2,
      c1,
    ]);
    expect(await s.consents.delete(9, c1)).toBe(true);
    expect(await s.consents.delete(9, c1)).toBe(false);
    expect(await s.consents.find(9, c1)).toBeUndefined();
    expect(await s.consents.listByUser(10)).toEqual([]);
  });
}
