import { createHash, randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logging/log.js';
import { createTestApp, uniqueName, type TestApp } from '../helpers/app.js';
import { LogSink } from '../helpers/log.js';

/** The whole service logging at `trace`, with no SMTP so e-mails go to the log. */
const loggedApp = (env: Record<string, string> = {}) =>
  createTestApp({ LOG_LEVEL: 'trace', SMTP_URL: '', ...env });

let current: TestApp | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function fullFlow(t: TestApp) {
  const secrets: string[] = [];
  const username = uniqueName('logged');
  const password = `Pw-${randomBytes(9).toString('base64url')}`;
  const email = `${username}@example.com`;
  secrets.push(password);
  const reg = await t.post('/api/v1/auth/register', {
    username,
    password,
    email,
  });
  expect(reg.statusCode).toBe(200);
  secrets.push(reg.json().access_token);
  expect(
    (
      await t.post('/api/v1/auth/login', {
        username,
        password: `${password}-wrong`,
      })
    ).statusCode,
  ).toBe(401);
  secrets.push(`${password}-wrong`);
  const login = await t.post('/api/v1/auth/login', { username, password });
  const token = login.json().access_token as string;
  secrets.push(token);
  expect(
    (await t.post('/api/v1/auth/send_code', { email, purpose: 'login' }))
      .statusCode,
  ).toBe(200);

  const created = await t.post(
    '/api/v1/auth/apps',
    { display_name: 'Logged', redirect_uris: ['https://example.com/cb'] },
    token,
  );
  expect(created.statusCode).toBe(200);
  const { client_id, client_secret } = created.json().data;
  secrets.push(client_secret);
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  secrets.push(verifier);
  const authz = await t.post(
    '/api/v1/auth/authorize',
    {
      client_id,
      redirect_uri: 'https://example.com/cb',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    },
    token,
  );
  const code = authz.json().data.code as string;
  secrets.push(code);
  const exchanged = await t.post('/api/v1/auth/exchange', {
    client_id,
    client_secret,
    code,
    code_verifier: verifier,
  });
  expect(exchanged.statusCode).toBe(200);
  secrets.push(exchanged.json().access_token);
  expect(
    (
      await t.post('/api/v1/auth/exchange', {
        client_id,
        client_secret: 'wrong-secret-value-xyz',
        code,
      })
    ).statusCode,
  ).toBe(401);
  secrets.push('wrong-secret-value-xyz');
  const rotated = await t.post(
    '/api/v1/auth/apps/rotate_secret',
    { client_id },
    token,
  );
  secrets.push(rotated.json().data.client_secret);

  const started = await t.post('/api/v1/auth/device/start', {});
  const { device_code, user_code } = started.json().data;
  secrets.push(device_code);
  expect(
    (await t.post('/api/v1/auth/device/approve', { user_code }, token))
      .statusCode,
  ).toBe(200);
  const polled = await t.post('/api/v1/auth/device/poll', { device_code });
  if (polled.statusCode === 200) secrets.push(polled.json().access_token);
  const game = await t.post('/api/v1/auth/game_token', {}, token);
  secrets.push(game.json().access_token);
  const refreshed = await t.post('/api/v1/auth/refresh', {}, token);
  secrets.push(refreshed.json().access_token);
  expect((await t.post('/api/v1/auth/logout', {}, token)).statusCode).toBe(200);
  return { secrets, email, username };
}

function expectNoSecret(text: string, secrets: string[]) {
  expect(text.length).toBeGreaterThan(0);
  for (const s of secrets)
    expect(text.includes(s), `secret ${s.slice(0, 8)}… in the log`).toBe(false);
  expect(text).not.toMatch(/"authorization"\s*:\s*"Bearer/i);
  expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./); // any JWT at all
}

describe('secrets never reach the log', () => {
  it('a full flow at trace level logs no password, secret, token, code verifier or device code', async () => {
    const t = await loggedApp();
    current = t;
    const { secrets, email } = await fullFlow(t);
    const text = t.log.text();
    expectNoSecret(text, secrets);
    // Development without SMTP: the e-mail, code included, is in the log on purpose.
    expect(text).toContain(email);
    expect(text).toMatch(/登录验证码是 \d{6}/);
  });

  it('in production without SMTP the e-mail text, and so the code, is withheld', async () => {
    const t = await loggedApp({
      NODE_ENV: 'production',
      BASE_URL: 'https://sso.example.com',
    });
    current = t;
    const { secrets, email } = await fullFlow(t);
    const text = t.log.text();
    expectNoSecret(text, secrets);
    expect(text).toContain('SMTP_URL is not set');
    expect(text).toContain(email);
    expect(text).not.toMatch(/验证码是/);
  });

  it('a 500 is logged without the request body or headers, and answered without internals', async () => {
    const t = await loggedApp();
    current = t;
    const users = t.runtime.storage.users;
    users.findByLogin = async () => {
      throw new Error('database exploded');
    };
    const password = `Pw-${randomBytes(9).toString('base64url')}`;
    const res = await t.post(
      '/api/v1/auth/login',
      { username: 'someone', password },
      'not-a-real-token-but-secretish',
      { cookie: 'sid=cookie-secret' },
    );
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ ok: false, msg: '服务器内部错误' });
    expect(res.body).not.toContain('exploded');
    const text = t.log.text();
    expect(text).toContain('database exploded'); // the fault itself is logged for the operator
    for (const s of [
      password,
      'not-a-real-token-but-secretish',
      'cookie-secret',
    ])
      expect(text).not.toContain(s);
  });

  it('the redaction paths cover careless logging of bodies and headers', async () => {
    const sink = new LogSink();
    const log = createLogger('trace', sink.stream);
    log.info(
      {
        body: {
          password: 'p1-secret',
          client_secret: 'cs-secret',
          code_verifier: 'cv-secret',
          device_code: 'dc-secret',
          access_token: 'at-secret',
          new_password: 'np-secret',
        },
      },
      'careless',
    );
    log.info(
      {
        req: {
          headers: { authorization: 'Bearer hdr-secret', cookie: 'ck-secret' },
        },
      },
      'careless',
    );
    log.info({ password: 'top-secret', token: 'tk-secret' }, 'careless');
    log.info(
      {
        req: {
          body: {
            password: 'deep-pw',
            client_secret: 'deep-cs',
            device_code: 'deep-dc',
          },
        },
      },
      'careless',
    );
    const text = sink.text();
    for (const s of [
      'p1-secret',
      'cs-secret',
      'cv-secret',
      'dc-secret',
      'at-secret',
      'np-secret',
      'hdr-secret',
      'ck-secret',
      'top-secret',
      'tk-secret',
      'deep-pw',
      'deep-cs',
      'deep-dc',
    ]) {
      expect(text).not.toContain(s);
    }
    expect(text).toContain('[redacted]');
  });
});
