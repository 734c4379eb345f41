import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema } from './helpers/db.js';
import { jwtHeader } from './helpers/jwt.js';
import { basicAuth, fetchForm, fetchJson } from './helpers/net.js';
import { authorizeRedirect, consentOverHttp } from './helpers/oidc-client.js';
import { rawRequest } from './helpers/raw-request.js';
import {
  call,
  runCli,
  startServer,
  within,
  type RunningServer,
} from './helpers/server.js';

/**
 * The OpenID Connect provider on two real processes sharing one PostgreSQL schema: a key
 * rotation is seen by both within 5 s, two instances racing on one refresh token give
 * exactly one success, a revoked family is refused by the other instance within 5 s (its
 * refresh token at once: that check reads the database).
 */
const PG = process.env.TEST_PG_URL;
const ISSUER = 'https://id.multi.example';
const CB = 'https://rp.multi.example/cb';

const kids = async (base: string): Promise<string[]> =>
  (
    (await fetchJson(base, 'GET', '/oauth/jwks')).body as {
      keys: Array<{ kid: string }>;
    }
  ).keys.map((k) => k.kid);

describe.skipIf(!PG)(
  'OpenID Connect on two instances of one PostgreSQL schema',
  () => {
    let db: Awaited<ReturnType<typeof freshPostgresSchema>>;
    let env: Record<string, string>;
    let A: RunningServer;
    let B: RunningServer;

    beforeAll(async () => {
      db = await freshPostgresSchema(PG!);
      env = { DATABASE_URL: `${db.url}&pool_max=4`, BASE_URL: ISSUER };
      [A, B] = await Promise.all([startServer(env), startServer(env)]);
    });
    afterAll(async () => {
      await Promise.all([A?.stop(), B?.stop()]);
      await db?.dispose();
    });

    /** A person signs in to a new client through instance A's authorization endpoint and consent; tokens from A. */
    async function signIn(): Promise<{
      client: [string, string];
      tokens: Record<string, string>;
      username: string;
    }> {
      const username = `oidc_mi_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
      const reg = await call(A.url, 'POST', '/api/v1/auth/register', {
        username,
        password: 'correct horse battery',
        email: `${username}@example.com`,
      });
      const token: string = reg.body.access_token;
      const app = await call(
        A.url,
        'POST',
        '/api/v1/auth/apps',
        { display_name: 'MI', redirect_uris: [CB] },
        token,
      );
      const client: [string, string] = [
        app.body.data.client_id,
        app.body.data.client_secret,
      ];
      const asked = await authorizeRedirect(A.url, token, {
        response_type: 'code',
        client_id: client[0],
        redirect_uri: CB,
        scope: 'openid profile',
        state: 's',
      });
      expect(asked.pathname).toBe('/authorize');
      const code = (
        await consentOverHttp(A.url, token, asked)
      ).searchParams.get('code')!;
      const res = await fetchForm(
        A.url,
        '/oauth/token',
        { grant_type: 'authorization_code', code, redirect_uri: CB },
        client,
      );
      expect(res.status).toBe(200);
      return { client, tokens: res.body as Record<string, string>, username };
    }

    it('both instances publish the same key; `keys rotate` is picked up by both within 5 s, the old key stays', async () => {
      const [ka, kb] = await Promise.all([kids(A.url), kids(B.url)]);
      expect(ka).toEqual(kb);
      const { kid } = JSON.parse(await runCli(env, ['keys', 'rotate'])) as {
        kid: string;
      };
      const tookMs = await within(
        5000,
        async () =>
          (await kids(A.url))[0] === kid && (await kids(B.url))[0] === kid,
        100,
      );
      expect(tookMs).toBeLessThan(5000);
      expect(await kids(B.url)).toEqual([kid, ka[0]]);
      const { tokens } = await signIn();
      const header = jwtHeader(tokens.access_token!) as { kid: string };
      expect(header.kid).toBe(kid);
    });

    it('two instances racing on one refresh token: exactly one success', async () => {
      for (let round = 0; round < 3; round++) {
        const { client, tokens } = await signIn();
        // Both requests reach their instance before either can rotate: a real race, which must not
        // be taken for reuse of an already rotated token (that would revoke the winner's family).
        const held = [A, B].map((s) =>
          rawRequest(s.url, {
            path: '/oauth/token',
            contentType: 'application/x-www-form-urlencoded',
            holdLastByte: true,
            headers: { Authorization: basicAuth(...client) },
            body: new URLSearchParams({
              grant_type: 'refresh_token',
              refresh_token: tokens.refresh_token!,
            }).toString(),
          }),
        );
        await Promise.all(held.map((h) => h.sent));
        // Each instance has read the held request's headers once it answers a later request.
        await Promise.all(
          [A, B].map((s) => fetchJson(s.url, 'GET', '/healthz')),
        );
        for (const h of held) h.release();
        const answers = await Promise.all(held.map((h) => h.answer));
        expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
        const loser = answers.find((r) => r.status !== 200)!;
        expect(loser.status).toBe(400);
        expect(loser.body).toMatchObject({
          error: 'invalid_grant',
          error_description:
            'The refresh token is being rotated by a concurrent request',
        });
        const winner = answers.find((r) => r.status === 200)!.body as Record<
          string,
          string
        >;
        // The winner's new refresh token works on the other instance.
        expect(
          (
            await fetchForm(
              B.url,
              '/oauth/token',
              {
                grant_type: 'refresh_token',
                refresh_token: winner.refresh_token!,
              },
              client,
            )
          ).status,
        ).toBe(200);
      }
    });

    it('a family revoked on one instance is refused there at once and by the other within 5 s', async () => {
      const { client, tokens } = await signIn();
      const info = (base: string) =>
        call(base, 'GET', '/oauth/userinfo', undefined, tokens.access_token);
      expect((await info(B.url)).status).toBe(200);
      expect(
        (
          await fetchForm(
            A.url,
            '/oauth/revoke',
            { token: tokens.refresh_token! },
            client,
          )
        ).status,
      ).toBe(200);
      expect((await info(A.url)).status).toBe(401);
      await within(5000, async () => (await info(B.url)).status === 401);
      const refreshed = await fetchForm(
        B.url,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
        client,
      );
      expect(refreshed.status).toBe(400);
    });

    it('`account-center user ban` ends the person’s OpenID Connect tokens on every instance within 5 s', async () => {
      const { client, tokens, username } = await signIn();
      const info = (base: string) =>
        call(base, 'GET', '/oauth/userinfo', undefined, tokens.access_token);
      expect((await info(B.url)).status).toBe(200);
      await runCli(env, ['user', 'ban', username]);
      await within(
        5000,
        async () =>
          (await info(A.url)).status === 401 &&
          (await info(B.url)).status === 401,
      );
      const refreshed = await fetchForm(
        B.url,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
        client,
      );
      expect(refreshed.status).toBe(400);
    });
  },
);
