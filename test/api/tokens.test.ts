import { createHmac, generateKeyPairSync, sign as rsaSign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  failure,
  createTestApp,
  TEST_SECRET,
  type TestApp,
} from '../helpers/app.js';
import { jwtClaims, jwtHeader } from '../helpers/jwt.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const A = '/api/v1/auth';
const INVALID = { ok: false, msg: '令牌无效或已过期' };
const b64 = (v: unknown) =>
  Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString(
    'base64url',
  );

function hmacToken(
  header: object,
  payload: object,
  secret: string,
  hash = 'sha256',
): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac(hash, secret).update(input).digest('base64url')}`;
}

describe('claims', () => {
  it('carry sub, uid, roles, app, iat, exp, a unique jti and the session id sid', async () => {
    const u = await t.register();
    const p = jwtClaims(u.token);
    expect(Object.keys(p).sort()).toEqual([
      'app',
      'exp',
      'iat',
      'jti',
      'roles',
      'sid',
      'sub',
      'uid',
    ]);
    expect(p.sid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(p).toMatchObject({
      sub: u.username,
      uid: u.uid,
      roles: ['player'],
      app: 'account-center',
    });
    expect((p.exp as number) - (p.iat as number)).toBe(604800);
    expect(Math.abs((p.iat as number) - Date.now() / 1000)).toBeLessThan(5);
    const header = jwtHeader(u.token);
    expect(header.alg).toBe('HS256');
    const again = (
      await t.post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token;
    expect(jwtClaims(again).jti).not.toBe(p.jti);
    const me = (await t.get(`${A}/me`, u.token)).json().data;
    expect(me.exp).toBe(p.exp);
    expect(me.app).toBe('account-center');
  });
});

describe('wire format', () => {
  it('is compact HS256 over the header {"alg":"HS256","typ":"JWT"} and the claims as plain JSON, in issue order', async () => {
    const u = await t.register();
    const login = (
      await t.post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token as string;
    const refreshed = (await t.post(`${A}/refresh`, undefined, u.token)).json()
      .access_token as string;
    for (const token of [u.token, login, refreshed]) {
      expect(
        Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8'),
      ).toBe('{"alg":"HS256","typ":"JWT"}');
      expect(Object.keys(jwtClaims(token))).toEqual([
        'sub',
        'uid',
        'roles',
        'app',
        'iat',
        'exp',
        'jti',
        'sid',
      ]);
      // Byte for byte: the claims re-serialised with JSON.stringify and signed by hand give the same token.
      expect(token).toBe(
        hmacToken({ alg: 'HS256', typ: 'JWT' }, jwtClaims(token), TEST_SECRET),
      );
    }
  });
});

describe('rejected tokens', () => {
  it('answer 401 for none, tampered, wrong-secret, other-algorithm and garbage tokens', async () => {
    const u = await t.register();
    const claims = jwtClaims(u.token);
    const [h, , s] = u.token.split('.');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsInput = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}`;
    const bad: Record<string, string> = {
      none: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      noneNoDot: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}`,
      tampered: `${h}.${b64({ ...claims, roles: ['player', 'admin'] })}.${s}`,
      otherUser: `${h}.${b64({ ...claims, uid: (claims.uid as number) + 1 })}.${s}`,
      wrongSecret: hmacToken(
        { alg: 'HS256', typ: 'JWT' },
        claims,
        'another-secret-another-secret-another-secret',
      ),
      hs512: hmacToken(
        { alg: 'HS512', typ: 'JWT' },
        claims,
        TEST_SECRET,
        'sha512',
      ),
      hs384: hmacToken(
        { alg: 'HS384', typ: 'JWT' },
        claims,
        TEST_SECRET,
        'sha384',
      ),
      rs256: `${rsInput}.${rsaSign('sha256', Buffer.from(rsInput), privateKey).toString('base64url')}`,
      garbage: 'not-a-token',
      truncated: u.token.slice(0, -3),
      noJti: hmacToken(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, jti: undefined },
        TEST_SECRET,
      ),
      noExp: hmacToken(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, exp: undefined },
        TEST_SECRET,
      ),
      expired: hmacToken(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, iat: 1000, exp: 2000 },
        TEST_SECRET,
      ),
    };
    for (const [name, token] of Object.entries(bad)) {
      expect(failure(await t.get(`${A}/me`, token)), name).toEqual([
        401,
        INVALID,
      ]);
      expect(
        failure(await t.post(`${A}/refresh`, undefined, token)),
        name,
      ).toEqual([401, INVALID]);
    }
    // The genuine token still works, and one signed correctly by hand too.
    expect((await t.get(`${A}/me`, u.token)).statusCode).toBe(200);
    expect(
      (
        await t.get(
          `${A}/me`,
          hmacToken({ alg: 'HS256', typ: 'JWT' }, claims, TEST_SECRET),
        )
      ).statusCode,
    ).toBe(200);
  });

  it('answer 401 for a missing or malformed Authorization header', async () => {
    const u = await t.register();
    const headers = [
      '',
      'Bearer',
      'Bearer ',
      `Basic ${u.token}`,
      `Token ${u.token}`,
      `${u.token}`,
      `Bearer ${u.token} extra`,
      `Bearer ${u.token},x`,
    ];
    expect(failure(await t.get(`${A}/me`))).toEqual([401, INVALID]);
    for (const authorization of headers) {
      expect(
        failure(await t.get(`${A}/me`, undefined, { authorization })),
        authorization.slice(0, 20),
      ).toEqual([401, INVALID]);
    }
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect(
        (
          await t.get(`${A}/me`, undefined, {
            authorization: `${scheme} ${u.token}`,
          })
        ).statusCode,
        scheme,
      ).toBe(200);
    }
  });

  it('expire after TOKEN_TTL', async () => {
    let clock = Date.now();
    const short = await createTestApp({ TOKEN_TTL: '1' }, { now: () => clock });
    try {
      const u = await short.register();
      expect(short.runtime.config.tokenTtl).toBe(1);
      const p = jwtClaims(u.token);
      expect((p.exp as number) - (p.iat as number)).toBe(1);
      clock = (p.exp as number) * 1000 + 100;
      expect(failure(await short.get(`${A}/me`, u.token))).toEqual([
        401,
        INVALID,
      ]);
      expect(
        failure(await short.post(`${A}/refresh`, undefined, u.token)),
      ).toEqual([401, INVALID]);
    } finally {
      await short.close();
    }
  });
});
