import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import type { OidcUpstream } from '../helpers/upstream/oidc-upstream.js';
import type { ListeningCenter } from '../helpers/upstream/http-browser.js';
import { closeCorpCenter, startCorpCenter } from './upstream-oidc-setup.js';

/**
 * Sign-in with a generic OpenID Connect provider (docs/api.md §14) against a real one,
 * panva's oidc-provider: discovery, code + PKCE + nonce, the ID token checked by openid-client,
 * and the account rules of §14.3 on both databases.
 */
let center: ListeningCenter;
let upstream: OidcUpstream;
let admin: TestUser;
const A = '/api/v1/auth';

beforeAll(async () => {
  ({ center, upstream, admin } = await startCorpCenter());
});
afterAll(async () => {
  await closeCorpCenter({ center, upstream });
});

describe('providers', () => {
  it('lists enabled providers for the sign-in buttons, and never a secret to administrators', async () => {
    const buttons = await center.get(`${A}/upstream/providers`);
    expect(buttons.json()).toEqual({
      ok: true,
      data: { providers: [{ id: 'corp', name: 'Corp SSO', type: 'oidc' }] },
    });
    const list = (await center.get(`${A}/admin/providers`, admin.token)).json()
      .data.providers;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: 'corp',
      has_client_secret: true,
      callback_url: `${center.baseUrl}/login/corp/callback`,
      scopes: 'openid profile email',
      enabled: true,
    });
    expect(JSON.stringify(list)).not.toContain(upstream.clientSecret);
  });

  it('refuses bad settings with 参数错误 naming the field, and a taken id', async () => {
    const bad = await center.post(
      `${A}/admin/providers`,
      {
        id: 'X!',
        type: 'oidc',
        name: 'x',
        client_id: 'c',
        client_secret: 's',
        issuer: upstream.issuer,
      },
      admin.token,
    );
    expect([bad.statusCode, bad.json()]).toEqual([
      400,
      { ok: false, msg: '参数错误：id' },
    ]);
    const noIssuer = await center.post(
      `${A}/admin/providers`,
      { id: 'x2', type: 'oidc', name: 'x', client_id: 'c', client_secret: 's' },
      admin.token,
    );
    expect(noIssuer.json()).toEqual({ ok: false, msg: '参数错误：issuer' });
    const plainHttp = await center.post(
      `${A}/admin/providers`,
      {
        id: 'x3',
        type: 'oidc',
        name: 'x',
        client_id: 'c',
        client_secret: 's',
        issuer: 'http://example.com',
      },
      admin.token,
    );
    expect(plainHttp.json()).toEqual({ ok: false, msg: '参数错误：issuer' });
    // A NUL is refused like any other bad character: PostgreSQL would not store it.
    for (const field of ['issuer', 'token_endpoint']) {
      const nul = await center.post(
        `${A}/admin/providers`,
        {
          id: 'x4',
          type: 'oidc',
          name: 'x',
          client_id: 'c',
          client_secret: 's',
          issuer: upstream.issuer,
          [field]: `${upstream.issuer}/a\u0000b`,
        },
        admin.token,
      );
      expect([nul.statusCode, nul.json()]).toEqual([
        400,
        { ok: false, msg: `参数错误：${field}` },
      ]);
    }
    const taken = await center.post(
      `${A}/admin/providers`,
      {
        id: 'corp',
        type: 'oidc',
        name: 'x',
        client_id: 'c',
        client_secret: 's',
        issuer: upstream.issuer,
      },
      admin.token,
    );
    expect([taken.statusCode, taken.json()]).toEqual([
      409,
      { ok: false, msg: '登录方式标识已存在' },
    ]);
    const player = await center.register();
    expect(
      (await center.get(`${A}/admin/providers`, player.token)).json(),
    ).toEqual({ ok: false, msg: '需要管理员权限' });
  });
});
