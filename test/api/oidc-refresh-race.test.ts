import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { discover, postForm, signInWithCode } from '../helpers/oidc-client.js';

// The clock stands still: every request, rotation and stored time falls in one millisecond,
// as a fast client's do, so only the order of events can tell a race from reuse.
const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const frozen = Date.now();
let t: TestApp;
let as: oauth.AuthorizationServer;
let rp: CreatedApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER }, { now: () => frozen });
  rp = await createApp(t, await t.register(), { redirect_uris: [CB] });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

const signIn = (user: TestUser) => signInWithCode(t, as, user, rp, CB);

const refresh = (token: string) =>
  postForm(
    t,
    '/oauth/token',
    { grant_type: 'refresh_token', refresh_token: token },
    { basic: [rp.client_id, rp.client_secret!] },
  );
const userinfo = (token: string) => t.get('/oauth/userinfo', token);

describe('refresh race or reuse, within one millisecond', () => {
  it("two requests racing: one wins, and the loser leaves the winner's tokens alive", async () => {
    for (let round = 0; round < 5; round++) {
      const first = await signIn(await t.register());
      const two = await Promise.all([
        refresh(first.refresh_token!),
        refresh(first.refresh_token!),
      ]);
      expect(two.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      const winner = two.find((r) => r.statusCode === 200)!.json();
      expect((await userinfo(winner.access_token)).statusCode).toBe(200);
      expect((await refresh(winner.refresh_token)).statusCode).toBe(200);
    }
  });

  it('a rotated token sent after its successor was handed out is reuse: the family dies', async () => {
    const first = await signIn(await t.register());
    const rotated = await refresh(first.refresh_token!);
    expect(rotated.statusCode).toBe(200);
    const second = rotated.json();
    const reuse = await refresh(first.refresh_token!);
    expect([reuse.statusCode, reuse.json().error]).toEqual([
      400,
      'invalid_grant',
    ]);
    expect((await refresh(second.refresh_token)).json().error).toBe(
      'invalid_grant',
    );
    expect((await userinfo(second.access_token)).statusCode).toBe(401);
  });
});
