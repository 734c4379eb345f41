import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
  type TestUser,
} from '../helpers/app.js';
import { adminOf, newAccount } from './registration-setup.js';

/** Who may register (docs/api.md §16.2): REGISTRATION, invite codes and e-mail domain lists. */
const A = '/api/v1/auth';
const BAD_INVITE = refusal('邀请码无效或已用完');

describe('REGISTRATION=invite', () => {
  let t: TestApp;
  let admin: TestUser;
  let clock = Date.UTC(2031, 5, 1, 9, 0, 0);
  beforeAll(async () => {
    t = await createTestApp(
      { REGISTRATION: 'invite', LIMIT_REGISTER_IP: '1000/3600' },
      { now: () => clock },
    );
    admin = await adminOf(t);
  });
  afterAll(async () => t.close());

  const invite = async (body: Record<string, unknown>) => {
    const res = await t.post(`${A}/admin/invites`, body, admin.token);
    expect(res.statusCode).toBe(200);
    return res.json().data as {
      id: string;
      code: string;
      uses: number;
      used: number;
      expires_at: number | null;
    };
  };
  const listed = async (id: string) =>
    (await t.get(`${A}/admin/invites`, admin.token))
      .json()
      .data.invites.find((i: { id: string }) => i.id === id);

  it('needs an invite code', async () => {
    expect(failure(await t.post(`${A}/register`, newAccount()))).toEqual([
      400,
      BAD_INVITE,
    ]);
    expect(
      failure(
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: 'made-up',
        }),
      ),
    ).toEqual([400, BAD_INVITE]);
  });

  it('an N-use code makes exactly N accounts out of 50 parallel registrations', async () => {
    const made = await invite({ uses: 3 });
    expect(made).toMatchObject({ uses: 3, used: 0, expires_at: null });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.post(`${A}/register`, { ...newAccount(), invite_code: made.code }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    for (const r of answers.filter((r) => r.statusCode !== 200))
      expect(failure(r)).toEqual([400, BAD_INVITE]);
    expect(await listed(made.id)).toMatchObject({ uses: 3, used: 3 });
    expect(JSON.stringify(await listed(made.id))).not.toContain(made.code);
  });

  it('gives the use back when the registration then fails', async () => {
    const made = await invite({});
    const res = await t.post(`${A}/register`, {
      ...newAccount(),
      invite_code: made.code,
      email_code: '000000',
    });
    expect(failure(res)).toEqual([400, refusal('验证码错误或已过期')]);
    expect(await listed(made.id)).toMatchObject({ uses: 1, used: 0 });
    expect(
      (
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: made.code,
        })
      ).statusCode,
    ).toBe(200);
  });

  it('expires, and can be removed', async () => {
    const made = await invite({ uses: 5, expires_in: 3600 });
    expect(made.expires_at).toBe(clock + 3600_000);
    clock += 3600_000;
    expect(
      failure(
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: made.code,
        }),
      ),
    ).toEqual([400, BAD_INVITE]);
    const other = await invite({ uses: 5 });
    expect(
      (await t.post(`${A}/admin/invites/remove`, { id: other.id }, admin.token))
        .statusCode,
    ).toBe(200);
    expect(
      failure(
        await t.post(`${A}/register`, {
          ...newAccount(),
          invite_code: other.code,
        }),
      ),
    ).toEqual([400, BAD_INVITE]);
    expect(
      failure(
        await t.post(
          `${A}/admin/invites/remove`,
          { id: other.id },
          admin.token,
        ),
      ),
    ).toEqual([404, refusal('邀请码不存在')]);
  });

  it('refuses bad invite settings and non-administrators', async () => {
    expect(
      failure(await t.post(`${A}/admin/invites`, { uses: 0 }, admin.token)),
    ).toEqual([400, refusal('参数错误：uses')]);
    expect(
      failure(
        await t.post(`${A}/admin/invites`, { expires_in: -5 }, admin.token),
      ),
    ).toEqual([400, refusal('参数错误：expires_in')]);
    expect(
      failure(
        await t.post(`${A}/admin/invites`, { uses: 'many' }, admin.token),
      ),
    ).toEqual([400, refusal('参数错误：uses')]);
    const made = await invite({});
    const player = await t.post(`${A}/register`, {
      ...newAccount(),
      invite_code: made.code,
    });
    expect(
      failure(
        await t.post(`${A}/admin/invites`, {}, player.json().access_token),
      ),
    ).toEqual([403, refusal('需要管理员权限')]);
  });
});
