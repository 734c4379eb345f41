import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  uniqueName,
  type TestApp,
} from '../helpers/app.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { waitFor } from '../helpers/wait.js';

/**
 * docs/api.md §10 for the e-mail address: the change needs the owner's proof at the code and
 * the same session at the confirmation; the "taken" answer is throttled like a send; the
 * notices tell the owner what happened and what still signs in.
 */
const A = '/api/v1/auth';
const ACC = `${A}/account`;
const BASE = 'https://id.example.com';
const REAUTH = refusal('需要重新验证身份');
const parallel = <T>(n: number, run: (i: number) => Promise<T>) =>
  Promise.all(Array.from({ length: n }, (_, i) => run(i)));

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('e-mail change', () => {
  it('a thief with only the token can not move the account to an address of theirs', async () => {
    t = await createTestApp();
    const victim = await t.register();
    const thief = `${uniqueName('thief')}@example.org`;
    expect(
      failure(
        await t.post(`${ACC}/email/send_code`, { email: thief }, victim.token),
      ),
    ).toEqual([401, REAUTH]);
    expect(
      failure(
        await t.post(
          `${ACC}/email/send_code`,
          { email: thief, current_password: 'a guess' },
          victim.token,
        ),
      ),
    ).toEqual([401, refusal('需要重新验证身份')]);
    await t.mailSent();
    expect(t.smtp.countTo(thief)).toBe(0);
    expect(
      failure(
        await t.post(
          `${ACC}/email`,
          { email: thief, code: '123456' },
          victim.token,
        ),
      ),
    ).toEqual([401, REAUTH]);
    // Password reset still mails the owner only.
    await t.post(`${A}/send_code`, { email: thief, purpose: 'reset_password' });
    expect(
      failure(
        await t.post(`${A}/reset_password`, {
          email: thief,
          code: '123456',
          new_password: 'taken over 123',
        }),
      ),
    ).toEqual([400, refusal('验证码错误或已过期')]);
    expect((await t.get(`${A}/me`, victim.token)).json().data.email).toBe(
      victim.email,
    );
    await t.mailSent();
    expect(t.smtp.countTo(thief)).toBe(0);
  });

  it('the confirmation needs the session that proved itself, within 10 minutes', async () => {
    let clock = Date.UTC(2031, 3, 1, 9, 0, 0);
    t = await createTestApp({}, { now: () => clock });
    const u = await t.register();
    const other = (
      await t.post(`${A}/login`, { username: u.username, password: u.password })
    ).json().access_token as string;
    const next = `${uniqueName('n')}@example.org`;
    expect(
      (
        await t.post(
          `${ACC}/email/send_code`,
          { email: next, current_password: u.password },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    const code = await t.smtp.codeFor(next);
    expect(
      failure(await t.post(`${ACC}/email`, { email: next, code }, other)),
    ).toEqual([401, REAUTH]);
    clock += 10 * 60_000 + 1;
    expect(
      failure(await t.post(`${ACC}/email`, { email: next, code }, u.token)),
    ).toEqual([401, REAUTH]);
    expect((await t.get(`${A}/me`, u.token)).json().data.email).toBe(u.email);
  });

  it('tells the old address when and to whom, and sends it to the administrators, not to password reset', async () => {
    t = await createTestApp();
    const u = await t.register();
    const next = `${uniqueName('n')}@example.org`;
    await t.post(
      `${ACC}/email/send_code`,
      { email: next, current_password: u.password },
      u.token,
    );
    const before = t.smtp.countTo(u.email);
    expect(
      (
        await t.post(
          `${ACC}/email`,
          { email: next, code: await t.smtp.codeFor(next) },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    await waitFor(
      'the notice to the old address',
      5000,
      () => t!.smtp.countTo(u.email) > before,
    );
    const notice = t.smtp.textsTo(u.email).at(-1)!;
    expect(notice).toContain(next);
    expect(notice).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(notice).toContain('联系本站管理员');
    expect(notice).not.toContain('忘记密码');
  });
});

describe('the "taken" answer of the e-mail-change code', () => {
  it('30 parallel probes of a taken address: at most the limit answer, the rest 429', async () => {
    t = await createTestApp({ LIMIT_ACCOUNT_PASSWORD: '1000/900' });
    const u = await t.register();
    const owner = await t.register();
    const res = await parallel(30, () =>
      t!.post(
        `${ACC}/email/send_code`,
        { email: owner.email, current_password: u.password },
        u.token,
      ),
    );
    const statuses = res.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 409).length).toBeLessThanOrEqual(1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(29);
    expect(statuses.filter((s) => s !== 409 && s !== 429)).toEqual([]);
  });

  it('probes of many addresses stop at LIMIT_EMAIL_CHANGE_USER', async () => {
    t = await createTestApp({ LIMIT_EMAIL_CHANGE_USER: '5/3600' });
    const u = await t.register();
    const others = await parallel(7, () => t!.register());
    const answers = [];
    for (const o of others)
      answers.push(
        failure(
          await t.post(
            `${ACC}/email/send_code`,
            { email: o.email, current_password: u.password },
            u.token,
          ),
        ),
      );
    expect(answers).toEqual([
      ...Array(5).fill([409, refusal('邮箱已被注册')]),
      ...Array(2).fill([429, refusal('请求过于频繁，请稍后再试')]),
    ]);
  });
});

describe('password change and reset notices', () => {
  it('list the passkeys that still sign in, with where to remove them', async () => {
    t = await createTestApp({ BASE_URL: BASE });
    const u = await t.register();
    const options = (
      await t.post(
        `${ACC}/passkeys/options`,
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    await t.post(
      `${ACC}/passkeys/register`,
      {
        name: '陌生设备',
        response: new SoftAuthenticator(BASE).create(options),
      },
      u.token,
    );
    let before = t.smtp.countTo(u.email);
    expect(
      (
        await t.post(
          `${ACC}/password`,
          { current_password: u.password, new_password: 'brand new password' },
          u.token,
        )
      ).statusCode,
    ).toBe(200);
    await waitFor(
      'the password change notice',
      5000,
      () => t!.smtp.countTo(u.email) > before,
    );
    const notice = t.smtp.textsTo(u.email).at(-1)!;
    expect(notice).toContain('密码已');
    expect(notice).toContain('陌生设备');
    expect(notice).toContain('/account');
    before = t.smtp.countTo(u.email);
    await t.post(`${A}/send_code`, {
      email: u.email,
      purpose: 'reset_password',
    });
    const code = await t.smtp.nextCodeFor(u.email, before);
    before = t.smtp.countTo(u.email);
    expect(
      (
        await t.post(`${A}/reset_password`, {
          email: u.email,
          code,
          new_password: 'another password 1',
        })
      ).statusCode,
    ).toBe(200);
    await waitFor(
      'the password reset notice',
      5000,
      () => t!.smtp.countTo(u.email) > before,
    );
    expect(t.smtp.textsTo(u.email).at(-1)).toContain('陌生设备');
  });
});
