import { describe, expect, it } from 'vitest';
import { addProvider, signInThrough } from '../helpers/upstream/flow.js';
import { DISCORD_CLIENT } from '../helpers/upstream/discord.js';
import { WECHAT_CLIENT } from '../helpers/upstream/wechat.js';
import { socialCenter } from './upstream-social-setup.js';

/**
 * The presets of docs/api.md §14.1 against local stand-ins that answer as each provider's
 * documentation says (test/helpers/upstream/*.ts): who the subject is, what the profile gives,
 * when an e-mail address is taken, and the refusals.
 */
const A = '/api/v1/auth';
const env = socialCenter();

describe('endpoint overrides', () => {
  // Nothing listens there: an endpoint still read from api_base fails the sign-in.
  const NOWHERE = 'http://127.0.0.1:9';

  it("userinfo_endpoint replaces the preset's profile address (Discord, WeChat)", async () => {
    await addProvider(env.center, env.admin, {
      id: 'discord-ui',
      type: 'discord',
      name: 'Discord UI',
      client_id: DISCORD_CLIENT.id,
      client_secret: DISCORD_CLIENT.secret,
      authorization_endpoint: `${env.discord.base}/oauth2/authorize`,
      token_endpoint: `${env.discord.base}/api/oauth2/token`,
      userinfo_endpoint: `${env.discord.base}/api/users/@me`,
      api_base: `${NOWHERE}/api`,
    });
    env.discord.signInAs({ id: '80351110224678920', username: 'overridden' });
    expect(
      (await signInThrough(env.center, 'discord-ui')).body.user,
    ).toMatchObject({ username: 'overridden' });
    await addProvider(env.center, env.admin, {
      id: 'wechat-ui',
      type: 'wechat',
      name: '微信 UI',
      client_id: WECHAT_CLIENT.id,
      client_secret: WECHAT_CLIENT.secret,
      authorization_endpoint: `${env.wechat.base}/connect/qrconnect`,
      token_endpoint: `${env.wechat.base}/sns/oauth2/access_token`,
      userinfo_endpoint: `${env.wechat.base}/sns/userinfo`,
      api_base: NOWHERE,
    });
    env.wechat.signInAs({ id: 'o6_override_openid', nickname: 'WxOverride' });
    expect(
      (await signInThrough(env.center, 'wechat-ui')).body.user,
    ).toMatchObject({
      username: 'WxOverride',
    });
  });

  it("the console's form, which sends every field, saves a provider of each type", async () => {
    const FORM = [
      'name',
      'client_id',
      'issuer',
      'scopes',
      'require_guild',
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
      'openid_endpoint',
      'api_base',
      'subject_field',
      'username_field',
      'email_field',
    ];
    const views = (
      await env.center.get(`${A}/admin/providers`, env.admin.token)
    ).json().data.providers as Array<Record<string, unknown>>;
    for (const view of views) {
      const body = Object.fromEntries([
        ['id', view.id],
        ['trust_email', view.trust_email],
        ...FORM.map((f) => [f, typeof view[f] === 'string' ? view[f] : '']),
      ]);
      const res = await env.center.post(
        `${A}/admin/providers/update`,
        body,
        env.admin.token,
      );
      expect([view.id, res.statusCode, res.json().msg]).toEqual([
        view.id,
        200,
        undefined,
      ]);
    }
  });

  it('an endpoint the type has no use for is refused, not ignored', async () => {
    for (const field of [
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
    ]) {
      const res = await env.center.post(
        `${A}/admin/providers`,
        {
          id: 'steam-x',
          type: 'steam',
          name: 'S',
          [field]: `${env.steam.base}/x`,
        },
        env.admin.token,
      );
      expect([res.statusCode, res.json()]).toEqual([
        400,
        { ok: false, msg: `参数错误：${field}` },
      ]);
    }
  });
});
