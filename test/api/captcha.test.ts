import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';
import { solvedCaptcha } from '../helpers/captcha.js';

/** The ALTCHA CAPTCHA of docs/api.md §16.1, with challenges solved by altcha-lib's solver. */
const A = '/api/v1/auth';
const NEEDED = refusal('请完成人机验证');
let t: TestApp;
let clock = Date.UTC(2031, 4, 1, 9, 0, 0);

const newAccount = () => {
  const username = uniqueName('cap');
  return {
    username,
    password: 'correct horse battery',
    email: `${username}@example.com`,
  };
};

beforeAll(async () => {
  // A low cost keeps the solver quick; IP limits on, so failures from an address are counted.
  t = await createTestApp(
    {
      CAPTCHA: 'altcha',
      CAPTCHA_COST: '5000',
      IP_RATE_LIMITS: 'on',
      TRUST_PROXY: 'true',
      LIMIT_REGISTER_IP: '1000/3600',
    },
    { now: () => clock },
  );
});
afterAll(async () => t.close());

describe('GET /api/v1/auth/captcha', () => {
  it('gives an ALTCHA challenge with the configured cost, not to be cached', async () => {
    const res = await t.get(`${A}/captcha`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data } = res.json() as { data: Record<string, unknown> };
    expect(data).toMatchObject({ algorithm: 'SHA-256', maxnumber: 5000 });
    expect(Object.keys(data).sort()).toEqual([
      'algorithm',
      'challenge',
      'maxnumber',
      'salt',
      'signature',
    ]);
  });
});

describe('register', () => {
  it('refuses a missing, malformed or forged solution with 400 请完成人机验证', async () => {
    expect(failure(await t.post(`${A}/register`, newAccount()))).toEqual([
      400,
      NEEDED,
    ]);
    expect(
      failure(
        await t.post(`${A}/register`, {
          ...newAccount(),
          captcha: 'not base64 json',
        }),
      ),
    ).toEqual([400, NEEDED]);
    const real = JSON.parse(
      Buffer.from(await solvedCaptcha(t), 'base64').toString(),
    ) as Record<string, unknown>;
    const forged = Buffer.from(
      JSON.stringify({ ...real, number: (real.number as number) + 1 }),
    ).toString('base64');
    expect(
      failure(
        await t.post(`${A}/register`, { ...newAccount(), captcha: forged }),
      ),
    ).toEqual([400, NEEDED]);
    const resigned = Buffer.from(
      JSON.stringify({ ...real, signature: '0'.repeat(64) }),
    ).toString('base64');
    expect(
      failure(
        await t.post(`${A}/register`, { ...newAccount(), captcha: resigned }),
      ),
    ).toEqual([400, NEEDED]);
    expect(
      failure(await t.post(`${A}/register`, { ...newAccount(), captcha: 42 })),
    ).toEqual([400, refusal('参数错误：captcha')]);
  });

  it('accepts a solved challenge once', async () => {
    const captcha = await solvedCaptcha(t);
    const res = await t.post(`${A}/register`, { ...newAccount(), captcha });
    expect(res.statusCode).toBe(200);
    expect(
      failure(await t.post(`${A}/register`, { ...newAccount(), captcha })),
    ).toEqual([400, NEEDED]);
  });

  it('lets exactly one of 20 parallel replays of one solution through', async () => {
    const captcha = await solvedCaptcha(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.post(`${A}/register`, { ...newAccount(), captcha }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of answers.filter((r) => r.statusCode !== 200))
      expect(failure(r)).toEqual([400, NEEDED]);
  });

  it('refuses a solution whose challenge is more than 10 minutes old', async () => {
    const captcha = await solvedCaptcha(t);
    clock += 10 * 60_000 + 1000;
    expect(
      failure(await t.post(`${A}/register`, { ...newAccount(), captcha })),
    ).toEqual([400, NEEDED]);
  });
});

describe('send_code', () => {
  it('needs a solution for every purpose', async () => {
    const email = `${uniqueName('cap')}@example.com`;
    expect(
      failure(await t.post(`${A}/send_code`, { email, purpose: 'register' })),
    ).toEqual([400, NEEDED]);
    expect(
      failure(await t.post(`${A}/send_code`, { email, purpose: 'login' })),
    ).toEqual([400, NEEDED]);
    const res = await t.post(`${A}/send_code`, {
      email,
      purpose: 'register',
      captcha: await solvedCaptcha(t),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('login', () => {
  it('asks for a solution only after 3 failed tries on an account', async () => {
    const account = newAccount();
    expect(
      (
        await t.post(`${A}/register`, {
          ...account,
          captcha: await solvedCaptcha(t),
        })
      ).statusCode,
    ).toBe(200);
    // Each from another address: the account's count alone decides.
    for (let i = 0; i < 3; i++) {
      const wrong = await t.post(
        `${A}/login`,
        { username: account.username, password: 'wrong password' },
        undefined,
        { 'x-forwarded-for': `10.1.0.${i}` },
      );
      expect(wrong.statusCode).toBe(401);
    }
    const right = { username: account.username, password: account.password };
    expect(failure(await t.post(`${A}/login`, right))).toEqual([400, NEEDED]);
    expect(
      (
        await t.post(`${A}/login`, {
          ...right,
          captcha: await solvedCaptcha(t),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('asks for a solution after 3 failed tries from an address, whatever the account', async () => {
    const account = newAccount();
    expect(
      (
        await t.post(`${A}/register`, {
          ...account,
          captcha: await solvedCaptcha(t),
        })
      ).statusCode,
    ).toBe(200);
    const ip = { 'x-forwarded-for': '10.2.0.1' };
    const right = { username: account.username, password: account.password };
    expect((await t.post(`${A}/login`, right, undefined, ip)).statusCode).toBe(
      200,
    );
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await t.post(
            `${A}/login`,
            { username: uniqueName('nobody'), password: 'wrong password' },
            undefined,
            ip,
          )
        ).statusCode,
      ).toBe(401);
    }
    expect(failure(await t.post(`${A}/login`, right, undefined, ip))).toEqual([
      400,
      NEEDED,
    ]);
    expect((await t.post(`${A}/login`, right)).statusCode).toBe(200);
  });
});
