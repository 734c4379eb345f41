import Database from 'better-sqlite3';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../helpers/app.js';
import { SmtpSink } from '../helpers/smtp.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A copy of the database is worth nothing to a thief: every password, client secret,
 * authorization code, e-mail code, device code and recovery code is there only as a hash,
 * and authenticator secrets only encrypted.
 */
const dir = mkdtempSync(join(tmpdir(), 'ac-stored-'));
let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('secrets at rest', () => {
  it('the database file holds none of the secrets handed out', async () => {
    const file = join(dir, 'db.sqlite');
    t = await createTestApp({ DATABASE_URL: `sqlite:${file}` });
    const password = `Pw-${randomBytes(9).toString('base64url')}`;
    const u = await t.register({ password });
    const secrets: string[] = [password];

    expect(
      (
        await t.post('/api/v1/auth/send_code', {
          email: u.email,
          purpose: 'verify',
        })
      ).statusCode,
    ).toBe(200);
    const emailCode = await t.smtp.codeFor(u.email);
    secrets.push(emailCode);

    const created = await t.post(
      '/api/v1/auth/apps',
      { display_name: 'At rest', redirect_uris: ['https://example.com/cb'] },
      u.token,
    );
    const { client_id, client_secret } = created.json().data;
    secrets.push(client_secret);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authz = await t.post(
      '/api/v1/auth/authorize',
      {
        client_id,
        redirect_uri: 'https://example.com/cb',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      },
      u.token,
    );
    secrets.push(authz.json().data.code);
    const device = await t.post('/api/v1/auth/device/start', {});
    secrets.push(device.json().data.device_code);

    const setup = await t.post(
      '/api/v1/auth/account/totp/setup',
      { current_password: u.password },
      u.token,
    );
    const { secret } = setup.json().data;
    const on = await t.post(
      '/api/v1/auth/account/totp/enable',
      { code: await generate({ secret }) },
      u.token,
    );
    const recoveryCodes: string[] = on.json().data.recovery_codes;
    expect(recoveryCodes).toHaveLength(10);
    secrets.push(
      secret,
      ...recoveryCodes,
      ...recoveryCodes.map((c) => c.replace('-', '')),
    );

    const db = new Database(file, { readonly: true });
    try {
      const tables = db
        .prepare("select name from sqlite_master where type = 'table'")
        .all() as Array<{ name: string }>;
      const dump = tables
        .map(({ name }) =>
          JSON.stringify(db.prepare(`select * from "${name}"`).all()),
        )
        .join('\n');
      expect(dump).toContain(u.username);
      for (const s of secrets)
        expect(dump.includes(s), `${s.slice(0, 6)}… stored in clear`).toBe(
          false,
        );
      const row = db
        .prepare('select password_hash from users where username = ?')
        .get(u.username) as { password_hash: string };
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
    } finally {
      db.close();
    }
  });

  it('no stored code is keyed with JWT_SECRET itself: each purpose has a key of its own', async () => {
    const file = join(dir, 'keys.sqlite');
    const app = await createTestApp({ DATABASE_URL: `sqlite:${file}` });
    try {
      const u = await app.register();
      const codes: string[] = [];
      expect(
        (
          await app.post('/api/v1/auth/send_code', {
            email: u.email,
            purpose: 'verify',
          })
        ).statusCode,
      ).toBe(200);
      codes.push(await app.smtp.codeFor(u.email));
      const db = new Database(file, { readonly: true });
      try {
        const stored = (
          db.prepare('select code_hash from email_codes').all() as Array<{
            code_hash: string;
          }>
        ).map((r) => r.code_hash);
        expect(stored.length).toBeGreaterThan(0);
        for (const code of codes) {
          const underTheSecretItself = createHmac('sha256', TEST_SECRET)
            .update(code)
            .digest('hex');
          expect(stored).not.toContain(underTheSecretItself);
        }
      } finally {
        db.close();
      }
    } finally {
      await app.close();
    }
  });

  it('an e-mail waiting for the mail server holds its code only sealed, and its row is gone once sent', async () => {
    const file = join(dir, 'mail.sqlite');
    const sink = new SmtpSink();
    let later = 0;
    const app = await createTestApp(
      {
        DATABASE_URL: `sqlite:${file}`,
        SMTP_URL: await sink.reserve(),
        LOG_LEVEL: 'warn',
      },
      { now: () => Date.now() + later },
    );
    try {
      const u = await app.register();
      expect(
        (
          await app.post('/api/v1/auth/send_code', {
            email: u.email,
            purpose: 'verify',
          })
        ).statusCode,
      ).toBe(200);
      await waitFor('a failed try', 10_000, () =>
        app.log.text().includes('e-mail not sent'),
      );
      const db = new Database(file, { readonly: true });
      let queued: string;
      try {
        const rows = db.prepare('select * from mail_outbox').all() as Array<{
          recipient_domain: string;
          message_enc: string;
        }>;
        expect(rows.map((r) => r.recipient_domain)).toEqual(['example.com']);
        expect(rows[0]!.message_enc).toMatch(/^v1\./);
        // Neither the address nor the subject: only the domain is in clear.
        expect(JSON.stringify(rows)).not.toContain(u.username);
        expect(JSON.stringify(rows)).not.toContain('验证码');
        queued = JSON.stringify(rows);
        const tables = db
          .prepare("select name from sqlite_master where type = 'table'")
          .all() as Array<{ name: string }>;
        queued += tables
          .map(({ name }) =>
            JSON.stringify(db.prepare(`select * from "${name}"`).all()),
          )
          .join('\n');
      } finally {
        db.close();
      }
      await sink.start();
      later = 60_000;
      const code = await sink.codeFor(u.email, 10_000);
      expect(queued.includes(code), 'the queued code stored in clear').toBe(
        false,
      );
      await app.mailSent();
      const after = new Database(file, { readonly: true });
      try {
        expect(
          after.prepare('select count(*) as n from mail_outbox').get(),
        ).toEqual({ n: 0 });
      } finally {
        after.close();
      }
    } finally {
      await app.close();
      await sink.stop();
    }
  });
});
