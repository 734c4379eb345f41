import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import type { TestApp, TestUser } from '../helpers/app.js';
import { createApp, type CreatedApp } from '../helpers/oauth.js';
import { postForm } from '../helpers/oidc-client.js';
import { CB, startTokenApp, tokenCodeFlow } from './oidc-token-setup.js';

// docs/api.md §5.6 and §12.4: a refusal that only the holder of a real code or token reaches
// (used, expired) is not a guess. The v1 exchange gives such a try back; the token endpoint
// does too, so a relying party retrying after a lost answer is never locked out.
const PAIR_LIMIT = 3;
let t: TestApp;
let person: TestUser;
let as: oauth.AuthorizationServer;
let client: CreatedApp;

beforeAll(async () => {
  ({
    t,
    person,
    as,
    basic: client,
  } = await startTokenApp({
    LIMIT_EXCHANGE_PAIR: `${PAIR_LIMIT}/300`,
    IP_RATE_LIMITS: 'off',
  }));
});
afterAll(async () => {
  await t.close();
});

const codeFlow = tokenCodeFlow(() => ({ t, person, as }));
const token = (form: Record<string, string>) =>
  postForm(t, '/oauth/token', form, {
    basic: [client.client_id, client.client_secret!],
  });
const statuses = async (
  times: number,
  send: () => ReturnType<typeof postForm>,
) => {
  const seen: Array<[number, string]> = [];
  for (let i = 0; i < times; i++) {
    const res = await send();
    seen.push([res.statusCode, res.json().error]);
  }
  return seen;
};
const refused = (times: number) =>
  Array.from({ length: times }, () => [400, 'invalid_grant']);

describe('the token endpoint throttle and replays', () => {
  it('replayed codes and used refresh tokens are refused as such, never 429; guesses still are', async () => {
    const { code } = await codeFlow(
      client,
      oauth.ClientSecretBasic(client.client_secret!),
    );
    const replays = PAIR_LIMIT + 2;
    expect(
      await statuses(replays, () =>
        token({ grant_type: 'authorization_code', code, redirect_uri: CB }),
      ),
    ).toEqual(refused(replays));

    const second = await codeFlow(
      client,
      oauth.ClientSecretBasic(client.client_secret!),
    );
    const rotated = await token({
      grant_type: 'refresh_token',
      refresh_token: second.tokens.refresh_token!,
    });
    expect(rotated.statusCode).toBe(200);
    expect(
      await statuses(replays, () =>
        token({
          grant_type: 'refresh_token',
          refresh_token: second.tokens.refresh_token!,
        }),
      ),
    ).toEqual(refused(replays));

    // Unknown codes are guesses: counted, then answered 429.
    expect(
      await statuses(PAIR_LIMIT, () =>
        token({
          grant_type: 'authorization_code',
          code: 'not-a-code',
          redirect_uri: CB,
        }),
      ),
    ).toEqual(refused(PAIR_LIMIT));
    const blocked = await token({
      grant_type: 'authorization_code',
      code: 'not-a-code',
      redirect_uri: CB,
    });
    expect(blocked.statusCode).toBe(429);
  });

  it('a denied device code polled again and again stays access_denied, never 429', async () => {
    const device = 'urn:ietf:params:oauth:grant-type:device_code';
    const dev = await t.register();
    const tv = await createApp(t, dev, {
      client_type: 'public',
      redirect_uris: [CB],
      grant_types: [device],
    });
    const started = (
      await postForm(t, '/oauth/device_authorization', {
        client_id: tv.client_id,
        scope: 'openid',
      })
    ).json();
    const denied = await t.post(
      '/api/v1/auth/device/approve',
      { user_code: started.user_code, deny: true },
      person.token,
    );
    expect(denied.statusCode).toBe(200);
    const polls = PAIR_LIMIT + 2;
    expect(
      await statuses(polls, () =>
        postForm(t, '/oauth/token', {
          grant_type: device,
          device_code: started.device_code,
          client_id: tv.client_id,
        }),
      ),
    ).toEqual(Array.from({ length: polls }, () => [400, 'access_denied']));
  });
});
