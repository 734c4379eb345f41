import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresSchema } from './helpers/db.js';
import { rawRequest } from './helpers/raw-request.js';
import { call, runCli, startServer, within, type RunningServer } from './helpers/server.js';
import { jwtHeader } from './helpers/jwt.js';

/**
 * The OpenID Connect provider on two real processes sharing one PostgreSQL schema: a key
 * rotation is seen by both within 5 s, two instances racing on one refresh token give
 * exactly one success, a revoked family is refused by the other instance within 5 s (its
 * refresh token at once: that check reads the database).
 */
const PG = process.env.TEST_PG_URL;
const ISSUER = 'https://id.multi.example';
const CB = 'https://rp.multi.example/cb';

const form = (base: string, path: string, fields: Record<string, string>, basic?: [string, string]) =>
  fetch(new URL(path, base), {
    method: 'POST', body: new URLSearchParams(fields),
    headers: basic ? { authorization: `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString('base64')}` } : {},
  });
const kids = async (base: string): Promise<string[]> => ((await (await fetch(new URL('/oauth/jwks', base))).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);

describe.skipIf(!PG)('OpenID Connect on two instances of one PostgreSQL schema', () => {
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
  async function signIn(): Promise<{ client: [string, string]; tokens: Record<string, string>; username: string }> {
    const username = `oidc_mi_${process.pid}_${Math.floor(Math.random() * 1e9)}`;
    const reg = await call(A.url, 'POST', '/api/v1/auth/register', { username, password: 'correct horse battery', email: `${username}@example.com` });
    const token: string = reg.body.access_token;
    const app = await call(A.url, 'POST', '/api/v1/auth/apps', { display_name: 'MI', redirect_uris: [CB] }, token);
    const client: [string, string] = [app.body.data.client_id, app.body.data.client_secret];
    const cookie = { cookie: `ac_session=${token}` };
    const q = new URLSearchParams({ response_type: 'code', client_id: client[0], redirect_uri: CB, scope: 'openid profile', state: 's' });
    const first = await fetch(new URL(`/oauth/authorize?${q}`, A.url), { redirect: 'manual', headers: cookie });
    expect(first.status).toBe(302);
    const ticket = new URL(first.headers.get('location')!, A.url).searchParams.get('ticket')!;
    const consent = await fetch(new URL('/oauth/consent', A.url), { method: 'POST', headers: { ...cookie, 'content-type': 'application/json' }, body: JSON.stringify({ ticket, decision: 'allow' }) });
    const code = new URL(((await consent.json()) as { data: { redirect_to: string } }).data.redirect_to).searchParams.get('code')!;
    const res = await form(A.url, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: CB }, client);
    expect(res.status).toBe(200);
    return { client, tokens: (await res.json()) as Record<string, string>, username };
  }

  it('both instances publish the same key; `keys rotate` is picked up by both within 5 s, the old key stays', async () => {
    const [ka, kb] = await Promise.all([kids(A.url), kids(B.url)]);
    expect(ka).toEqual(kb);
    const { kid } = JSON.parse(await runCli(env, ['keys', 'rotate'])) as { kid: string };
    const tookMs = await within(5000, async () => (await kids(A.url))[0] === kid && (await kids(B.url))[0] === kid, 100);
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
      const held = [A, B].map((s) => rawRequest(s.url, {
        path: '/oauth/token', contentType: 'application/x-www-form-urlencoded', holdLastByte: true,
        headers: { Authorization: `Basic ${Buffer.from(`${client[0]}:${client[1]}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }).toString(),
      }));
      await Promise.all(held.map((h) => h.sent));
      // Each instance has read the held request's headers once it answers a later request.
      await Promise.all([A, B].map((s) => fetch(new URL('/healthz', s.url))));
      for (const h of held) h.release();
      const answers = await Promise.all(held.map((h) => h.answer));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
      const loser = answers.find((r) => r.status !== 200)!;
      expect(loser.status).toBe(400);
      expect(loser.body).toMatchObject({ error: 'invalid_grant', error_description: 'The refresh token is being rotated by a concurrent request' });
      const winner = answers.find((r) => r.status === 200)!.body as Record<string, string>;
      // The winner's new refresh token works on the other instance.
      expect((await form(B.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: winner.refresh_token! }, client)).status).toBe(200);
    }
  });

  it('a family revoked on one instance is refused there at once and by the other within 5 s', async () => {
    const { client, tokens } = await signIn();
    const info = (base: string) => call(base, 'GET', '/oauth/userinfo', undefined, tokens.access_token);
    expect((await info(B.url)).status).toBe(200);
    expect((await form(A.url, '/oauth/revoke', { token: tokens.refresh_token! }, client)).status).toBe(200);
    expect((await info(A.url)).status).toBe(401);
    await within(5000, async () => (await info(B.url)).status === 401);
    const refreshed = await form(B.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, client);
    expect(refreshed.status).toBe(400);
  });

  it('`account-center user ban` ends the person’s OpenID Connect tokens on every instance within 5 s', async () => {
    const { client, tokens, username } = await signIn();
    const info = (base: string) => call(base, 'GET', '/oauth/userinfo', undefined, tokens.access_token);
    expect((await info(B.url)).status).toBe(200);
    await runCli(env, ['user', 'ban', username]);
    await within(5000, async () => (await info(A.url)).status === 401 && (await info(B.url)).status === 401);
    const refreshed = await form(B.url, '/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! }, client);
    expect(refreshed.status).toBe(400);
  });
});
