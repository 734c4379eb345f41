import { createSigner, createVerifier } from 'fast-jwt';
import { describe, expect, it } from 'vitest';
import { hmacJwtKey, hs256Verifier, jwtSigner } from '../../src/platform/jwt/jwt.js';
import { jwtHeader } from '../helpers/jwt.js';

const SECRET = 'a-secret-of-the-right-length-for-hs256-000000';
const now = 1_790_000_000;

// Claims shaped as TokenService.issue makes them, including the awkward cases: no sid,
// non-ASCII names, characters JSON escapes, an empty role list.
const CASES = [
  { sub: 'player_1', uid: 1, roles: ['player'], app: 'account-center', iat: now, exp: now + 900, jti: 'm1.abc', sid: 's1' },
  { sub: 'игрок', uid: 2, roles: [], app: 'game', iat: now, exp: now + 604_800, jti: 'm2.def', sid: undefined },
  { sub: 'quote"back\\slash', uid: 3, roles: ['admin', 'player'], app: 'x\u0001y', iat: now, exp: now + 1, jti: 'm3.ghi' },
  { sub: '日本語🎮', uid: 2_147_483_647, roles: ['player'], app: 'account-center', iat: now, exp: now + 60, jti: 'm4.jkl', sid: 'ß' },
];

describe('HS256 signing (first-party tokens)', () => {
  const sign = jwtSigner(hmacJwtKey(SECRET));

  it('gives byte for byte the token fast-jwt signs for the same claims', () => {
    const fastJwt = createSigner({ key: SECRET, algorithm: 'HS256' });
    for (const claims of CASES) expect(sign(claims)).toBe(fastJwt({ ...claims }));
  });

  it('makes tokens fast-jwt verifies with the same secret, with every claim kept', () => {
    const verify = createVerifier({ key: SECRET, algorithms: ['HS256'], clockTimestamp: now * 1000 });
    for (const claims of CASES) {
      const { sid, ...rest } = claims as typeof claims & { sid?: string };
      expect(verify(sign(claims))).toEqual(sid === undefined ? rest : { ...rest, sid });
    }
  });

  it('makes tokens another secret does not verify', () => {
    const verify = createVerifier({ key: `${SECRET}-other`, algorithms: ['HS256'], clockTimestamp: now * 1000 });
    expect(() => verify(sign(CASES[0]!))).toThrow();
  });

  it('writes the header {"alg":"HS256","typ":"JWT"}, or the typ asked for', () => {
    expect(jwtHeader(sign(CASES[0]!))).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(jwtHeader(jwtSigner(hmacJwtKey(SECRET), 'ac-authz-ticket')(CASES[0]!))).toEqual({ alg: 'HS256', typ: 'ac-authz-ticket' });
  });

  it('its verifier takes what it signed and refuses another secret, a changed claim and alg none', () => {
    const verify = hs256Verifier(hmacJwtKey(SECRET));
    const claims = { ...CASES[0]!, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 60 };
    const token = sign(claims);
    expect(verify(token)).toEqual(claims);
    expect(() => hs256Verifier(hmacJwtKey(`${SECRET}-other`))(token)).toThrow();
    const [header, , signature] = token.split('.');
    expect(() => verify(`${header}.${Buffer.from(JSON.stringify({ ...claims, uid: 2 })).toString('base64url')}.${signature}`)).toThrow();
    const none = Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url');
    expect(() => verify(`${none}.${token.split('.')[1]}.`)).toThrow();
  });
});
