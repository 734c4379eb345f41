import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import {
  browse,
  listeningCenter,
  postJson,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  callbackAddress,
  CookieJar,
  finish,
  signInThrough,
  userCount,
  visitCallback,
} from '../helpers/upstream/flow.js';
import type { StandIn } from '../helpers/upstream/stand-in.js';
import { githubProvider, startGithub } from '../helpers/upstream/github.js';
import { startSteam, type SteamStandIn } from '../helpers/upstream/steam.js';
import { QQ_CLIENT, startQq, type QqStandIn } from '../helpers/upstream/qq.js';
import { startWechat, WECHAT_CLIENT } from '../helpers/upstream/wechat.js';

/**
 * A callback whose query names a field twice (docs/api.md §14.2): the checks and the
 * provider must never see different values of one field, so such a callback is refused
 * before anything is asked or used — for Steam's OpenID 2.0 assertion and the OAuth codes alike.
 */
let center: ListeningCenter;
let admin: TestUser;
let steam: SteamStandIn;
let github: StandIn;
let qq: QqStandIn;
let wechat: StandIn;
const A = '/api/v1/auth';
const STATE_PAGE = {
  status: 400,
  result: 'error',
  message: '登录请求已失效，或不是在这个浏览器中发起的。请返回登录页重新开始。',
};

beforeAll(async () => {
  [center, steam, github, qq, wechat] = await Promise.all([
    listeningCenter(),
    startSteam(),
    startGithub(),
    startQq(),
    startWechat(),
  ]);
  admin = await center.admin();
  await addProvider(center, admin, {
    id: 'steam',
    type: 'steam',
    name: 'Steam',
    openid_endpoint: steam.endpoint,
  });
  await addProvider(center, admin, githubProvider(github));
  await addProvider(center, admin, {
    id: 'qq',
    type: 'qq',
    name: 'QQ',
    client_id: QQ_CLIENT.id,
    client_secret: QQ_CLIENT.secret,
    authorization_endpoint: `${qq.base}/oauth2.0/authorize`,
    token_endpoint: `${qq.base}/oauth2.0/token`,
    api_base: qq.base,
  });
  await addProvider(center, admin, {
    id: 'wechat',
    type: 'wechat',
    name: '微信',
    client_id: WECHAT_CLIENT.id,
    client_secret: WECHAT_CLIENT.secret,
    authorization_endpoint: `${wechat.base}/connect/qrconnect`,
    token_endpoint: `${wechat.base}/sns/oauth2/access_token`,
    api_base: wechat.base,
  });
});
afterAll(async () => {
  await Promise.all([steam, github, qq, wechat].map((s) => s?.close()));
  await center?.close();
});

/** The callback address with `extra` placed before the genuine fields: a reader of the first value sees `extra`. */
function withFieldsFirst(genuine: URL, extra: Record<string, string>): URL {
  const tampered = new URL(genuine);
  tampered.search = `${new URLSearchParams(extra).toString()}&${genuine.search.slice(1)}`;
  return tampered;
}

/** The genuine query with field `name` given again, after the genuine value. */
function duplicated(genuine: URL, name: string, again: string): URL {
  const tampered = new URL(genuine);
  tampered.search = `${genuine.search.slice(1)}&${new URLSearchParams({ [name]: again }).toString()}`;
  return tampered;
}

const claimedId = (steamId: string) =>
  `https://steamcommunity.com/openid/id/${steamId}`;

describe('Steam: a claimed identifier given twice', () => {
  it("signs nobody in as the victim: the attacker's own genuine assertion with the victim's SteamID in front is refused", async () => {
    const victimId = '76561197960400001';
    steam.signInAs({ id: victimId, personaname: 'Victim' });
    const victim = await signInThrough(center, 'steam');
    expect(victim.status).toBe(200);

    steam.signInAs({ id: '76561197960400002', personaname: 'Attacker' });
    const jar = new CookieJar();
    const genuine = await callbackAddress(center, 'steam', jar);
    const before = steam.log.filter((l) => l === 'POST /openid/login').length;
    const page = await visitCallback(
      withFieldsFirst(genuine, {
        'openid.claimed_id': claimedId(victimId),
        'openid.identity': claimedId(victimId),
      }),
      jar,
    );
    expect(page).toMatchObject(STATE_PAGE);
    expect((await finish(center, page.ticket, jar)).body).toEqual({
      ok: false,
      msg: '第三方登录已失效，请重新登录',
    });
    // Steam was not even asked: nothing of a tampered answer goes anywhere.
    expect(steam.log.filter((l) => l === 'POST /openid/login').length).toBe(
      before,
    );
    const audit = (
      await center.get(`${A}/admin/audit?action=login.failure`, admin.token)
    ).json().data.entries;
    expect(audit[0]).toMatchObject({
      detail: { method: 'upstream:steam', reason: 'duplicate' },
    });
  });

  it('links no foreign SteamID from /account', async () => {
    const attacker = await center.register();
    steam.signInAs({ id: '76561197960400003', personaname: 'Linker' });
    const jar = new CookieJar();
    const start = await postJson(
      center,
      `${A}/account/upstream/link`,
      { provider: 'steam', current_password: attacker.password },
      jar,
      attacker.token,
    );
    expect(start.status).toBe(200);
    const genuine = (
      await browse(
        new URL(start.body.data.url, center.baseUrl),
        jar,
        (url) => url.pathname === '/login/steam/callback',
      )
    ).url;
    const page = await visitCallback(
      withFieldsFirst(genuine, {
        'openid.claimed_id': claimedId('76561197960400004'),
        'openid.identity': claimedId('76561197960400004'),
      }),
      jar,
    );
    expect(page).toMatchObject(STATE_PAGE);
    expect(
      (await center.get(`${A}/account/upstream`, attacker.token)).json().data
        .links,
    ).toEqual([]);
  });

  it('refuses any other openid field or the state given twice, even with the same value', async () => {
    steam.signInAs({ id: '76561197960400005', personaname: 'Twice' });
    for (const name of [
      'openid.sig',
      'openid.signed',
      'openid.return_to',
      'state',
    ]) {
      const jar = new CookieJar();
      const genuine = await callbackAddress(center, 'steam', jar);
      expect(
        await visitCallback(
          duplicated(genuine, name, genuine.searchParams.get(name) ?? ''),
          jar,
        ),
        name,
      ).toMatchObject(STATE_PAGE);
    }
  });
});

describe('OAuth providers: code or state given twice', () => {
  it('QQ and WeChat refuse a second code or state and create nothing; GitHub too', async () => {
    qq.signInAs({ id: 'OPENID0000000000000000000000901', nickname: 'Twice' });
    wechat.signInAs({ id: 'o6_twice_openid', nickname: 'Twice' });
    github.signInAs({ id: '990001', login: 'twice' });
    const before = await userCount(center, admin);
    for (const [provider, name] of [
      ['qq', 'code'],
      ['qq', 'state'],
      ['wechat', 'code'],
      ['wechat', 'state'],
      ['github', 'code'],
      ['github', 'state'],
    ] as const) {
      const jar = new CookieJar();
      const genuine = await callbackAddress(center, provider, jar);
      const value = genuine.searchParams.get(name) ?? '';
      // A stale code after the genuine one (a reader of the first value would sign in), or the same state twice.
      const page = await visitCallback(
        duplicated(genuine, name, name === 'code' ? 'stale-code' : value),
        jar,
      );
      expect(page, `${provider} ${name}`).toMatchObject(STATE_PAGE);
      expect((await finish(center, page.ticket, jar)).status).toBe(400);
    }
    expect(await userCount(center, admin)).toBe(before);
    // The same flows without the duplicate sign in.
    expect((await signInThrough(center, 'qq')).status).toBe(200);
  });

  it('refuses an error given twice', async () => {
    const jar = new CookieJar();
    const genuine = await callbackAddress(center, 'github', jar);
    const twice = new URL(genuine);
    twice.search = `error=access_denied&error=server_error&state=${genuine.searchParams.get('state')}`;
    expect(await visitCallback(twice, jar)).toMatchObject(STATE_PAGE);
  });
});
