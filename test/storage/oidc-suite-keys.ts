import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';

/** Signing keys and their generations. */
export function oidcKeysStorageSuite(storage: () => Storage): void {
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
}
