import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema } from './helpers/db.js';
import { authorizeRedirect, consentOverHttp } from './helpers/oidc-client.js';
import { call, startServer, type RunningServer } from './helpers/server.js';

/**
 * Remembered consent and its withdrawal on two real processes sharing one PostgreSQL schema:
 * both are read from the database on every request, so the other instance sees them at once.
 */
const PG = process.env.TEST_PG_URL;
const ISSUER = 'https://id.consent.example';
const CB = 'https://rp.consent.example/cb';

describe.skipIf(!PG)('remembered consent across instances', () => {
  let db: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let A: RunningServer;
  let B: RunningServer;

  beforeAll(async () => {
    db = await freshPostgresSchema(PG!);
    const env = { DATABASE_URL: `${db.url}&pool_max=4`, BASE_URL: ISSUER };
    [A, B] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([A?.stop(), B?.stop()]);
    await db?.dispose();
  });

  it('a consent given on one instance lets the other answer prompt=none with a code; a withdrawal on the other asks again', async () => {
    const username = `consent_mi_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
    const token: string = (
      await call(A.url, 'POST', '/api/v1/auth/register', {
        username,
        password: 'correct horse battery',
        email: `${username}@example.com`,
      })
    ).body.access_token;
    const clientId: string = (
      await call(
        A.url,
        'POST',
        '/api/v1/auth/apps',
        { display_name: 'Consent MI', redirect_uris: [CB] },
        token,
      )
    ).body.data.client_id;
    const request = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: CB,
      scope: 'openid profile',
    };
    const silently = (base: string) =>
      authorizeRedirect(base, token, {
        ...request,
        state: 'st',
        prompt: 'none',
      });

    expect((await silently(B.url)).searchParams.get('error')).toBe(
      'consent_required',
    );
    const asked = await authorizeRedirect(A.url, token, request);
    expect(asked.pathname).toBe('/authorize');
    expect(
      (await consentOverHttp(A.url, token, asked)).searchParams.get('code'),
    ).toBeTruthy();

    const onB = await silently(B.url);
    expect([
      onB.searchParams.get('error'),
      onB.searchParams.get('iss'),
      onB.searchParams.get('state'),
    ]).toEqual([null, ISSUER, 'st']);
    expect(onB.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{50}$/);

    expect(
      (
        await call(
          B.url,
          'POST',
          '/api/v1/auth/account/authorized_apps/revoke',
          { client_id: clientId },
          token,
        )
      ).status,
    ).toBe(200);
    expect((await silently(A.url)).searchParams.get('error')).toBe(
      'consent_required',
    );
  });
});
