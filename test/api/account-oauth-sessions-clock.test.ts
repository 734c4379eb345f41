import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  failure,
  refusal,
  type TestApp,
} from '../helpers/app.js';
import { createApp, pkcePair } from '../helpers/oauth.js';
import { authorizeAsBrowser, postForm } from '../helpers/oidc-client.js';

const ISSUER = 'https://id.example.com';
const CB = 'https://rp.example.com/cb';
const A = '/api/v1/auth';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ BASE_URL: ISSUER });
});
afterAll(async () => {
  await t.close();
});

type Listed = {
  id: string;
  kind: string;
  app: string;
  app_name: string;
  created_at: number;
  last_used_at: number;
  ip: string;
  user_agent: string;
  current: boolean;
};
describe('OAuth families over time (injected clock)', () => {
  it('last used follows the newest rotation; an expired family leaves the list and can not be ended', async () => {
    let clock = Date.now();
    const timed = await createTestApp(
      { BASE_URL: ISSUER, REFRESH_TOKEN_TTL: '600' },
      { now: () => clock },
    );
    try {
      const owner = await timed.register();
      const user = await timed.register();
      const client = await createApp(timed, owner, { redirect_uris: [CB] });
      const list = async () =>
        (
          (await timed.get(`${A}/account/sessions`, user.token)).json().data
            .sessions as Listed[]
        ).filter((s) => s.kind === 'oauth');
      const pkce = pkcePair();
      const code = new URL(
        await authorizeAsBrowser(timed, user, {
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: CB,
          scope: 'openid',
          state: 'st',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      ).searchParams.get('code')!;
      const basic = {
        basic: [client.client_id, client.client_secret!] as [string, string],
      };
      const first = await postForm(
        timed,
        '/oauth/token',
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: CB,
          code_verifier: pkce.verifier,
        },
        basic,
      );
      expect(first.statusCode, first.body).toBe(200);
      const started = Math.floor(clock / 1000);
      expect((await list()).map((s) => [s.created_at, s.last_used_at])).toEqual(
        [[started, started]],
      );

      clock += 120_000;
      const second = await postForm(
        timed,
        '/oauth/token',
        {
          grant_type: 'refresh_token',
          refresh_token: first.json().refresh_token,
        },
        basic,
      );
      expect(second.statusCode).toBe(200);
      const fam = (await list())[0]!;
      expect([fam.created_at, fam.last_used_at]).toEqual([
        started,
        started + 120,
      ]);

      clock += 601_000;
      expect(await list()).toEqual([]);
      expect(
        failure(
          await timed.post(
            `${A}/account/sessions/end`,
            { id: fam.id },
            user.token,
          ),
        ),
      ).toEqual([404, refusal('会话不存在')]);
    } finally {
      await timed.close();
    }
  });
});
