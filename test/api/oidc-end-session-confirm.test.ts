import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { CreatedApp } from '../helpers/oauth.js';
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

const { idTokenFor, endSession, signedIn } = endSessionRequests(() => ({
  t,
  rp,
  clock,
}));

function expectConfirmationPage(res: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}): void {
  expect(res.statusCode).toBe(200);
  expect(res.headers.location).toBeUndefined();
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.body).toContain('<h1>退出登录？</h1>');
  expect(res.body).toMatch(
    /<button[^>]*name="decision" value="confirm">确认退出<\/button>/,
  );
  expect(res.body).toMatch(
    /<button[^>]*name="decision" value="cancel">取消<\/button>/,
  );
  expect(res.body).toContain(`<form method="post" action="${CONFIRM}">`);
  expect(res.body).not.toContain('<script');
  expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  expect(res.headers['content-security-policy']).toContain(
    "frame-ancestors 'none'",
  );
}

describe('RP-initiated logout without a hint of the signed-in person: the confirmation page', () => {
  it('a plain GET or POST without a hint ends nothing and asks', async () => {
    const person = await t.register();
    for (const [params, method] of [
      [{}, 'GET'],
      [
        { client_id: rp.client_id, post_logout_redirect_uri: BYE, state: 's' },
        'GET',
      ],
      [{ post_logout_redirect_uri: BYE }, 'POST'],
    ] as const) {
      const res = await endSession(params, person.token, method);
      expectConfirmationPage(res);
      expect(await signedIn(person.token)).toBe(true);
    }
    const withTarget = await endSession(
      { client_id: rp.client_id, post_logout_redirect_uri: BYE, state: 's' },
      person.token,
    );
    // The form's answer may only redirect to the registered address.
    expect(withTarget.headers['content-security-policy']).toContain(
      "form-action 'self' https://rp.example.com;",
    );
    expect(formOf(withTarget.body)).toMatchObject({
      client_id: rp.client_id,
      post_logout_redirect_uri: BYE,
      state: 's',
    });
    const unregistered = await endSession(
      {
        client_id: rp.client_id,
        post_logout_redirect_uri: 'https://evil.example.com/',
      },
      person.token,
    );
    expect(unregistered.headers['content-security-policy']).toContain(
      "form-action 'self';",
    );
    expect(formOf(unregistered.body).post_logout_redirect_uri).toBeUndefined();
    const audit = await t.runtime.storage.audit.list(
      { action: 'oidc.end_session', actor: person.username },
      0,
      5,
    );
    expect(audit.entries).toEqual([]);
  });

  it('a valid hint naming someone else ends nobody’s session', async () => {
    const [a, b] = [await t.register(), await t.register()];
    const res = await endSession(
      {
        id_token_hint: await idTokenFor(b),
        post_logout_redirect_uri: BYE,
        state: 'x',
      },
      a.token,
    );
    expectConfirmationPage(res);
    expect(res.body).toContain(a.username);
    expect(await signedIn(a.token)).toBe(true);
    expect(await signedIn(b.token)).toBe(true);
    // The hint's client is carried to the form, so confirming returns there.
    expect(formOf(res.body)).toMatchObject({
      client_id: rp.client_id,
      post_logout_redirect_uri: BYE,
      state: 'x',
    });
  });
});
