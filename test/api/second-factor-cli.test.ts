import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { isPostgresUrl } from '../helpers/db.js';
import { runCommand } from '../helpers/server.js';

/** The operator's way out when the only administrator lost every second factor. */
const dir = mkdtempSync(join(tmpdir(), 'ac-2fa-cli-'));
let t: TestApp;
let databaseUrl: string;

beforeAll(async () => {
  const pg = process.env.TEST_DATABASE_URL;
  t = await createTestApp(
    isPostgresUrl(pg) ? {} : { DATABASE_URL: `sqlite:${join(dir, 'ac.db')}` },
  );
  databaseUrl = t.runtime.config.databaseUrl;
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('account-center user remove-second-factor', () => {
  it('removes the authenticator of a user, audited; an unknown user is a clear failure', async () => {
    const u = await t.register();
    const { secret } = (
      await t.post(
        '/api/v1/auth/account/totp/setup',
        { current_password: u.password },
        u.token,
      )
    ).json().data;
    await t.post(
      '/api/v1/auth/account/totp/enable',
      { code: await generate({ secret }) },
      u.token,
    );
    expect(
      (
        await t.post('/api/v1/auth/login', {
          username: u.username,
          password: u.password,
        })
      ).json().msg,
    ).toBe('需要两步验证');

    const env = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: TEST_SECRET,
      LOG_LEVEL: 'warn',
    };
    const run = await runCommand(env, [
      'user',
      'remove-second-factor',
      u.username,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      totp_removed: true,
      passkeys_removed: 0,
    });
    expect(
      (
        await t.post('/api/v1/auth/login', {
          username: u.username,
          password: u.password,
        })
      ).statusCode,
    ).toBe(200);
    const admin = await t.admin();
    const audit = await t.get(
      `/api/v1/auth/admin/audit?action=second_factor.admin_remove&target=${u.username}`,
      admin.token,
    );
    expect(audit.json().data.entries).toEqual([
      expect.objectContaining({ actor: 'cli', ip: null, target: u.username }),
    ]);

    const unknown = await runCommand(env, [
      'user',
      'remove-second-factor',
      'nobody_at_all',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('account-center: no such user');
  });
});
