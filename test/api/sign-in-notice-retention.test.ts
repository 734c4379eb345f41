import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/log.js';
import { Housekeeping } from '../../src/features/housekeeping/housekeeping.js';
import { testClock } from '../helpers/clock.js';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
} from '../helpers/app.js';
import {
  BASE,
  FIREFOX,
  HOME,
  PHONE,
  signInRequests,
} from './sign-in-history-setup.js';

/** The sign-in history and the new-browser notice (docs/api.md §17), through the API. */
const A = '/api/v1/auth';
const DAY = 24 * 3600_000;

const clock = testClock(Date.UTC(2030, 5, 1, 8, 0, 0));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ BASE_URL: BASE }, { now: () => clock.now });
});
afterAll(async () => {
  await t.close();
  clock.restore();
});

const { signedIn, history, notices } = signInRequests(() => t);

describe('the notice of a sign-in from a new browser or address', () => {
  it('is not sent for the first sign-in, nor from a browser and address seen before', async () => {
    const u = await t.register();
    await signedIn(u);
    await signedIn(u);
    expect(await notices(u)).toBe(0);
  });

  it('is sent once for a new address, with the time, address, browser and a link to /account', async () => {
    const u = await t.register();
    await signedIn(u);
    await signedIn(u, '198.51.100.99', FIREFOX);
    expect(await notices(u)).toBe(1);
    const text = t.smtp.textsTo(u.email).at(-1)!;
    expect(text).toContain('198.51.100.99');
    expect(text).toContain(FIREFOX);
    expect(text).toContain(
      `${new Date(clock.now).toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    );
    expect(text).toContain(`${BASE}/account`);
    // Known from now on.
    await signedIn(u, '198.51.100.99', FIREFOX);
    expect(await notices(u)).toBe(1);
  });

  it('is sent for a new browser at a known address', async () => {
    const u = await t.register();
    await signedIn(u, HOME, FIREFOX);
    await signedIn(u, HOME, PHONE);
    expect(await notices(u)).toBe(1);
    expect(t.smtp.textsTo(u.email).at(-1)).toContain(PHONE);
  });

  it('is not sent when the person turned it off, and is again once turned back on', async () => {
    const u = await t.register();
    expect(
      (await t.get(`${A}/account/sign_in_notice`, u.token)).json(),
    ).toEqual({ ok: true, data: { enabled: true } });
    expect(
      (
        await t.post(`${A}/account/sign_in_notice`, { enabled: false }, u.token)
      ).json(),
    ).toEqual({ ok: true, data: { enabled: false } });
    expect(
      (await t.get(`${A}/account/sign_in_notice`, u.token)).json(),
    ).toEqual({ ok: true, data: { enabled: false } });
    await signedIn(u);
    await signedIn(u, '198.51.100.1', PHONE);
    expect(await notices(u)).toBe(0);
    await t.post(`${A}/account/sign_in_notice`, { enabled: true }, u.token);
    await signedIn(u, '198.51.100.2', PHONE);
    expect(await notices(u)).toBe(1);
  });

  it('refuses a setting that is not a boolean, and asks for a token', async () => {
    const u = await t.register();
    expect(
      failure(
        await t.post(`${A}/account/sign_in_notice`, { enabled: 'no' }, u.token),
      ),
    ).toEqual([400, refusal('参数错误：enabled')]);
    expect(
      failure(await t.post(`${A}/account/sign_in_notice`, {}, u.token)),
    ).toEqual([400, refusal('参数错误：enabled')]);
    expect(
      (await t.post(`${A}/account/sign_in_notice`, { enabled: false }))
        .statusCode,
    ).toBe(401);
  });
});

describe('retention', () => {
  it('keeps 90 days: older sign-ins leave the list and no longer count as seen', async () => {
    const u = await t.register();
    await signedIn(u, HOME, FIREFOX);
    clock.now += 89 * DAY;
    await signedIn(u, HOME, FIREFOX);
    expect(await notices(u)).toBe(0);
    clock.now += 2 * DAY;
    const token = await signedIn(u, '198.51.100.50', PHONE);
    expect((await history(token)).map((s) => s.ip)).toEqual([
      '198.51.100.50',
      HOME,
    ]);
    expect(await notices(u)).toBe(1);
    clock.now += 89 * DAY;
    // The one sign-in seen in the last 90 days is of another address and browser.
    const back = await signedIn(u, HOME, FIREFOX);
    expect((await history(back)).map((s) => s.ip)).toEqual([
      HOME,
      '198.51.100.50',
    ]);
    expect(await notices(u)).toBe(2);
    // An account back after more than 90 days without a sign-in is told too.
    clock.now += 91 * DAY;
    await signedIn(u, HOME, FIREFOX);
    expect(await notices(u)).toBe(3);
  });

  it('housekeeping deletes the rows older than 90 days from the database', async () => {
    const u = await t.register();
    await signedIn(u, '198.51.100.70', FIREFOX);
    clock.now += 60 * DAY;
    await signedIn(u, HOME, FIREFOX);
    const { storage } = t.runtime;
    const stored = async () =>
      (await storage.signInHistory.listRecent(u.uid, 0, 100)).map((r) => r.ip);
    // The service's own round runs every ten minutes; this one runs now, on the moved clock.
    const keeper = new Housekeeping(
      storage,
      { reload: async () => undefined },
      () => clock.now,
      createLogger('silent'),
    );
    clock.now += 31 * DAY;
    await keeper.run();
    expect(await stored()).toEqual([HOME]);
  });

  it('deleting the account deletes its sign-ins', async () => {
    const u = await t.register();
    const token = await signedIn(u);
    expect(
      await t.runtime.storage.signInHistory.listRecent(u.uid, 0, 100),
    ).toHaveLength(1);
    expect(
      (
        await t.post(`${A}/account/delete`, { password: u.password }, token)
      ).json(),
    ).toEqual({ ok: true, data: {} });
    expect(
      await t.runtime.storage.signInHistory.listRecent(u.uid, 0, 100),
    ).toEqual([]);
  });
});
