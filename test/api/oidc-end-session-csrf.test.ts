import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
import { location, sessionCookie } from '../helpers/oidc-pages.js';
import {
  BYE,
  CONFIRM,
  endSessionRequests,
  formOf,
  startLogoutApp,
} from './oidc-end-session-setup.js';

let t: TestApp;
let rp: CreatedApp;
const clock = Date.now();

beforeAll(async () => {
  ({ t, rp } = await startLogoutApp(clock));
});
afterAll(async () => {
  await t.close();
});

const { endSession, signedIn } = endSessionRequests(() => ({ t, rp, clock }));

function postConfirm(fields: Record<string, string>, token?: string) {
  return t.app.inject({
    method: 'POST',
    url: CONFIRM,
    payload: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? sessionCookie(token) : {}),
    },
  });
}

describe('RP-initiated logout without a hint of the signed-in person: the confirmation page', () => {
  it('confirming needs this session’s CSRF token; with it the session ends and the browser returns with state', async () => {
    const [person, someone] = [await t.register(), await t.register()];
    const fields = formOf(
      (
        await endSession(
          {
            client_id: rp.client_id,
            post_logout_redirect_uri: BYE,
            state: 'st',
          },
          person.token,
        )
      ).body,
    );
    const theirs = formOf((await endSession({}, someone.token)).body);
    expect(fields.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const csrf of [
      undefined,
      '',
      'x'.repeat(43),
      theirs.csrf_token!,
      fields.csrf_token!.slice(0, -1),
    ]) {
      const { csrf_token: _, ...rest } = fields;
      const res = await postConfirm(
        {
          ...rest,
          ...(csrf === undefined ? {} : { csrf_token: csrf }),
          decision: 'confirm',
        },
        person.token,
      );
      expect([
        res.statusCode,
        res.headers.location,
        res.headers['set-cookie'],
      ]).toEqual([403, undefined, undefined]);
      expect(res.body).toContain('退出确认已失效');
    }
    expect(await signedIn(person.token)).toBe(true);
    // The token alone, without the session cookie, ends nothing either.
    expect(
      (await postConfirm({ ...fields, decision: 'confirm' })).headers.location,
    ).toBe(`${BYE}&state=st`);
    expect(await signedIn(person.token)).toBe(true);

    const res = await postConfirm(
      { ...fields, decision: 'confirm' },
      person.token,
    );
    expect(location(res).href).toBe(`${BYE}&state=st`);
    expect(String(res.headers['set-cookie'])).toMatch(
      /^ac_session=;.*Max-Age=0/,
    );
    expect(await signedIn(person.token)).toBe(false);
    expect(await signedIn(someone.token)).toBe(true);
    const audit = await t.runtime.storage.audit.list(
      { action: 'oidc.end_session', actor: person.username },
      0,
      5,
    );
    expect(audit.entries[0]).toMatchObject({ target: rp.client_id });
  });

  it('取消 ends nothing and returns to the registered address with state, or to the home page', async () => {
    const person = await t.register();
    const fields = formOf(
      (
        await endSession(
          {
            client_id: rp.client_id,
            post_logout_redirect_uri: BYE,
            state: 'c',
          },
          person.token,
        )
      ).body,
    );
    const back = await postConfirm(
      { ...fields, decision: 'cancel' },
      person.token,
    );
    expect([location(back).href, back.headers['set-cookie']]).toEqual([
      `${BYE}&state=c`,
      undefined,
    ]);
    const home = await postConfirm(
      {
        ...formOf((await endSession({}, person.token)).body),
        decision: 'cancel',
      },
      person.token,
    );
    expect(home.headers.location).toBe('/');
    // An address the form did not get from the center is not followed.
    const forged = await postConfirm(
      {
        ...fields,
        post_logout_redirect_uri: 'https://evil.example.com/',
        decision: 'cancel',
      },
      person.token,
    );
    expect(forged.headers.location).toBe('/');
    expect(await signedIn(person.token)).toBe(true);
  });
});
