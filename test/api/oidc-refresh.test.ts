import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import {
  authorizeAsBrowser,
  discover,
  postForm,
  viaInject,
} from '../helpers/oidc-client.js';
import {
  randomToken,
  sha256Hex,
  timedSecretKey,
} from '../../src/platform/crypto/random.js';
import { auth, CB, cred, ISSUER, tokenLife } from './oidc-refresh-setup.js';

let t: TestApp;
let dev: TestUser;
let as: oauth.AuthorizationServer;
let rp: CreatedApp;
let other: CreatedApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER });
  dev = await t.register();
  rp = await createApp(t, dev, { redirect_uris: [CB] });
  other = await createApp(t, dev, { redirect_uris: [CB] });
  as = await discover(t, ISSUER);
});
afterAll(async () => {
  await t.close();
});

const { signIn, refresh, introspect, userinfo } = tokenLife(() => ({
  t,
  as,
  rp,
}));

describe('refresh tokens', () => {
  it('rotate through oauth4webapi; a narrower scope may be asked, a wider one not', async () => {
    const user = await t.register();
    const first = await signIn(user);
    const c = { client_id: rp.client_id };
    const second = await oauth.processRefreshTokenResponse(
      as,
      c,
      await oauth.refreshTokenGrantRequest(
        as,
        c,
        auth(rp),
        first.refresh_token!,
        viaInject(t),
      ),
    );
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe('openid profile email');
    expect(oauth.getValidatedIdTokenClaims(second)!.sub).toBe(String(user.uid));
    const narrow = await refresh(second.refresh_token!, rp, {
      scope: 'openid',
    });
    expect(narrow.statusCode).toBe(200);
    expect(narrow.headers['cache-control']).toBe('no-store');
    expect(narrow.json().scope).toBe('openid');
    // The new refresh token keeps the whole grant (RFC 6749 §6).
    const wide = await refresh(narrow.json().refresh_token, rp, {
      scope: 'openid offline_access',
    });
    expect(wide.json().error).toBe('invalid_scope');
    expect((await refresh(narrow.json().refresh_token)).json().scope).toBe(
      'openid profile email',
    );
  });

  it('reuse of a rotated token is invalid_grant and revokes the whole family, access tokens included', async () => {
    const user = await t.register();
    const first = await signIn(user);
    const second = (await refresh(first.refresh_token!)).json();
    const reuse = await refresh(first.refresh_token!);
    expect([reuse.statusCode, reuse.json().error]).toEqual([
      400,
      'invalid_grant',
    ]);
    expect((await refresh(second.refresh_token)).json().error).toBe(
      'invalid_grant',
    );
    expect((await userinfo(second.access_token)).statusCode).toBe(401);
    expect((await introspect(second.access_token)).active).toBe(false);
    const { entries } = await t.runtime.storage.audit.list(
      { action: 'refresh.reuse' },
      0,
      10,
    );
    expect(entries.length).toBeGreaterThanOrEqual(1);
  });

  it('is bound to its client', async () => {
    const user = await t.register();
    const first = await signIn(user);
    expect((await refresh(first.refresh_token!, other)).json().error).toBe(
      'invalid_grant',
    );
    expect((await refresh(first.refresh_token!)).statusCode).toBe(200);
  });

  it('two concurrent refreshes of one token: exactly one succeeds; 50 in parallel: one', async () => {
    const user = await t.register();
    const a = await signIn(user);
    const two = await Promise.all([
      refresh(a.refresh_token!),
      refresh(a.refresh_token!),
    ]);
    expect(two.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const b = await signIn(user);
    const fifty = await Promise.all(
      Array.from({ length: 50 }, () => refresh(b.refresh_token!)),
    );
    expect(fifty.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of fifty.filter((x) => x.statusCode !== 200))
      expect(r.json().error).toBe('invalid_grant');
    // The racing losers did not take the winner's fresh tokens down with them.
    const winner = fifty.find((r) => r.statusCode === 200)!.json();
    const seen = await userinfo(winner.access_token);
    expect([seen.statusCode, seen.headers['cache-control']]).toEqual([
      200,
      'no-store',
    ]);
    expect((await refresh(winner.refresh_token)).statusCode).toBe(200);
  });

  it('carry the time first, sorting as issued; a token stored under its plain hash (issued before) still works', async () => {
    const user = await t.register();
    const first = await signIn(user);
    const second = (await refresh(first.refresh_token!)).json();
    for (const token of [first.refresh_token!, second.refresh_token])
      expect(token).toMatch(/^[A-Za-z0-9_-]{50}$/);
    expect(
      Buffer.compare(
        Buffer.from(first.refresh_token!.slice(0, 7)),
        Buffer.from(second.refresh_token.slice(0, 7)),
      ),
    ).toBeLessThanOrEqual(0);

    const stored = (await t.runtime.storage.refreshTokens.findByHash(
      timedSecretKey(second.refresh_token),
    ))!;
    const legacy = randomToken(32);
    await t.runtime.storage.refreshTokens.create({
      tokenHash: sha256Hex(legacy),
      familyId: stored.familyId,
      clientId: stored.clientId,
      userId: stored.userId,
      scope: stored.scope,
      authTime: stored.authTime,
      createdAt: stored.createdAt,
      expiresAt: stored.expiresAt,
    });
    expect((await introspect(legacy)).active).toBe(true);
    const rotated = await refresh(legacy);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().refresh_token).toMatch(/^[A-Za-z0-9_-]{50}$/);
    expect((await introspect(legacy)).active).toBe(false);
    expect(
      (
        await postForm(
          t,
          '/oauth/revoke',
          { token: rotated.json().refresh_token },
          cred(rp),
        )
      ).statusCode,
    ).toBe(200);
    expect((await refresh(rotated.json().refresh_token)).json().error).toBe(
      'invalid_grant',
    );
  });

  it('expires after REFRESH_TOKEN_TTL', async () => {
    let clock = Date.now();
    const t2 = await createTestApp(
      { BASE_URL: ISSUER, REFRESH_TOKEN_TTL: '60' },
      { now: () => clock },
    );
    try {
      const owner = await t2.register();
      const app2 = await createApp(t2, owner, { redirect_uris: [CB] });
      const code = (
        await authorizeAsBrowser(t2, owner, {
          response_type: 'code',
          client_id: app2.client_id,
          redirect_uri: CB,
          scope: 'openid',
        })
      ).searchParams.get('code')!;
      const tokens = (
        await postForm(
          t2,
          '/oauth/token',
          { grant_type: 'authorization_code', code, redirect_uri: CB },
          cred(app2),
        )
      ).json();
      clock += 61_000;
      expect(
        (
          await postForm(
            t2,
            '/oauth/token',
            {
              grant_type: 'refresh_token',
              refresh_token: tokens.refresh_token,
            },
            cred(app2),
          )
        ).json().error,
      ).toBe('invalid_grant');
    } finally {
      await t2.close();
    }
  });
});
