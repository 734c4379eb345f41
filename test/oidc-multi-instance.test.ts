import { describe, expect, it } from 'vitest';
import { jwtHeader } from './helpers/jwt.js';
import { basicAuth, fetchForm, fetchJson } from './helpers/net.js';
import { rawRequest } from './helpers/raw-request.js';
import { call, runCli, within } from './helpers/server.js';
import { instancePair, PG, signInToNewClient } from './multi-instance-setup.js';

/**
 * The OpenID Connect provider on two real processes sharing one PostgreSQL schema: a key
 * rotation is seen by both within 5 s, two instances racing on one refresh token give
 * exactly one success, a revoked family is refused by the other instance within 5 s (its
 * refresh token at once: that check reads the database).
 */
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
    const pair = instancePair(() => ({ BASE_URL: ISSUER }));
    /** A person signs in to a new client through instance A's authorization endpoint and consent; tokens from A. */
    const signIn = () =>
      signInToNewClient(pair.A.url, {
        prefix: 'oidc_mi',
        app: 'MI',
        redirectUri: CB,
        scope: 'openid profile',
      });

    it('both instances publish the same key; `keys rotate` is picked up by both within 5 s, the old key stays', async () => {
      const [ka, kb] = await Promise.all([kids(pair.A.url), kids(pair.B.url)]);
      expect(ka).toEqual(kb);
      const { kid } = JSON.parse(
        await runCli(pair.env, ['keys', 'rotate']),
      ) as {
        kid: string;
      };
      const tookMs = await within(
        5000,
        async () =>
          (await kids(pair.A.url))[0] === kid &&
          (await kids(pair.B.url))[0] === kid,
        100,
      );
      expect(tookMs).toBeLessThan(5000);
      expect(await kids(pair.B.url)).toEqual([kid, ka[0]]);
      const { tokens } = await signIn();
      const header = jwtHeader(tokens.access_token!) as { kid: string };
      expect(header.kid).toBe(kid);
    });

    it('two instances racing on one refresh token: exactly one success', async () => {
      for (let round = 0; round < 3; round++) {
        const { client, tokens } = await signIn();
        // Both requests reach their instance before either can rotate: a real race, which must not
        // be taken for reuse of an already rotated token (that would revoke the winner's family).
        const held = [pair.A, pair.B].map((s) =>
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
          [pair.A, pair.B].map((s) => fetchJson(s.url, 'GET', '/healthz')),
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
              pair.B.url,
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
      expect((await info(pair.B.url)).status).toBe(200);
      expect(
        (
          await fetchForm(
            pair.A.url,
            '/oauth/revoke',
            { token: tokens.refresh_token! },
            client,
          )
        ).status,
      ).toBe(200);
      expect((await info(pair.A.url)).status).toBe(401);
      await within(5000, async () => (await info(pair.B.url)).status === 401);
      const refreshed = await fetchForm(
        pair.B.url,
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
      expect((await info(pair.B.url)).status).toBe(200);
      await runCli(pair.env, ['user', 'ban', username]);
      await within(
        5000,
        async () =>
          (await info(pair.A.url)).status === 401 &&
          (await info(pair.B.url)).status === 401,
      );
      const refreshed = await fetchForm(
        pair.B.url,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
        client,
      );
      expect(refreshed.status).toBe(400);
    });
  },
);
