import { pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { cliWorkspace, loginWith as login } from '../helpers/cli.js';

const ws = cliWorkspace('ac-transfer-');
afterAll(() => ws.dispose());

const b64 = (b: Buffer) => b.toString('base64');
const salt = randomBytes(16);
const kcSalt = randomBytes(16);
/** One user per hash format, each hash made by the library such a system uses. */
const foreign = [
  {
    username: 'from_bcrypt',
    email: 'From.Bcrypt@Example.com',
    password: 'bcrypt-pass-1',
    password_hash: bcrypt.hashSync('bcrypt-pass-1', 4),
    roles: ['player', 'admin'],
    email_verified: true,
  },
  {
    username: 'from_scrypt',
    email: 'scrypt@example.com',
    password: 'scrypt-pass-1',
    password_hash: `$scrypt$ln=14,r=8,p=1$${b64(salt)}$${b64(scryptSync('scrypt-pass-1', salt, 32, { N: 16384, r: 8, p: 1 }))}`,
  },
  {
    username: 'from_django',
    email: 'django@example.com',
    password: 'django-pass-1',
    password_hash: `pbkdf2_sha256$1000$d5Ealt9X$${b64(pbkdf2Sync('django-pass-1', 'd5Ealt9X', 1000, 32, 'sha256'))}`,
  },
  {
    username: 'from_keycloak',
    email: 'kc@example.com',
    password: 'keycloak-pass-1',
    emailVerified: true,
    firstName: 'Key',
    lastName: 'Cloak',
    credentials: [
      {
        type: 'password',
        secretData: JSON.stringify({
          value: b64(pbkdf2Sync('keycloak-pass-1', kcSalt, 1000, 64, 'sha256')),
          salt: b64(kcSalt),
          additionalParameters: {},
        }),
        credentialData: JSON.stringify({
          hashIterations: 1000,
          algorithm: 'pbkdf2-sha256',
          additionalParameters: {},
        }),
      },
    ],
  },
];

describe('users import / export through the CLI', () => {
  it('imports foreign hashes that sign in once and are then stored as argon2id', async () => {
    const db = await ws.freshDatabase('foreign');
    const file = join(ws.dir, 'foreign.jsonl');
    const lines = [
      ...foreign.map(({ password: _p, ...row }) => JSON.stringify(row)),
      '{"username": "broken", ',
      JSON.stringify({
        username: 'bad_hash',
        email: 'bad@example.com',
        password_hash: 'md5$deadbeef',
      }),
      JSON.stringify({ username: 'x', email: 'short@example.com' }),
      JSON.stringify({ username: 'same_mail', email: 'DJANGO@example.com' }),
      JSON.stringify({
        username: 'no_password',
        email: 'nopw@example.com',
        display_name: 'No Password',
      }),
    ];
    writeFileSync(file, `\uFEFF${lines.join('\n')}\n`);
    const run = await ws.cli(db, ['users', 'import', file]);
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      imported: 5,
      already_present: 0,
      rejected: 4,
      rows: 9,
    });
    expect(run.stderr).toContain('line 5: not valid JSON (skipped)');
    expect(run.stderr).toMatch(
      /line 6: password_hash: unknown password hash format .*\(skipped\)/,
    );
    expect(run.stderr).toMatch(/line 7: username: "x" is not .*\(skipped\)/);
    expect(run.stderr).toMatch(
      /line 8: e-mail "DJANGO@example.com" is used by another account \(skipped\)/,
    );

    const service = await ws.service(db);
    try {
      for (const u of foreign) {
        expect(
          (await login(service, u.username, `${u.password}-wrong`)).statusCode,
          u.username,
        ).toBe(401);
        const ok = await login(service, u.username, u.password);
        expect(ok.statusCode, `${u.username}: ${ok.body}`).toBe(200);
        const stored = await service.runtime.storage.users.findByUsername(
          u.username,
        );
        expect(stored!.passwordHash.startsWith('$argon2id$'), u.username).toBe(
          true,
        );
        expect((await login(service, u.username, u.password)).statusCode).toBe(
          200,
        );
        expect(
          (await login(service, u.username, `${u.password}-wrong`)).statusCode,
        ).toBe(401);
      }
      const bc =
        await service.runtime.storage.users.findByUsername('from_bcrypt');
      expect(bc).toMatchObject({
        email: 'From.Bcrypt@Example.com',
        roles: ['player', 'admin'],
        emailVerified: true,
        banned: false,
      });
      expect(
        await service.runtime.storage.users.findByEmail(
          'from.bcrypt@example.com',
        ),
      ).toMatchObject({ username: 'from_bcrypt' });
      expect(
        await service.runtime.storage.users.findByUsername('from_keycloak'),
      ).toMatchObject({ displayName: 'Key Cloak', emailVerified: true });
      // Imported without a password: no password signs in; e-mail codes and reset still can.
      expect(
        (await login(service, 'no_password', '!no-password')).statusCode,
      ).toBe(401);
      expect(
        await service.runtime.storage.users.findByUsername('bad_hash'),
      ).toBeUndefined();
      const audit = await service.runtime.storage.audit.list(
        { action: 'users.import' },
        0,
        10,
      );
      expect(audit.entries[0]).toMatchObject({
        actor: 'cli',
        target: file,
        detail: { imported: 5, already_present: 0, rejected: 4 },
      });
    } finally {
      await service.close();
    }
  });

  it('imports a few thousand rows in batches, resumes after a stop, and round-trips through export', async () => {
    const db = await ws.freshDatabase('bulk');
    const n = 3000;
    const hash = bcrypt.hashSync('bulk-password-1', 4);
    const header =
      'username,email,display_name,roles,email_verified,password_hash\n';
    const row = (i: number) =>
      `bulk_${i},Bulk${i}@example.com,"Bulk, number ${i}",player,${i % 2 === 0},${hash}\n`;
    const rows = Array.from({ length: n }, (_, i) => row(i));
    // Line 1 is the header, so row i is on line i + 2; one bad row in the middle.
    rows[1500] = 'bulk_1500,not-an-email,Bulk,player,true,\n';
    // A first run that stopped after 1,200 rows, then the whole file.
    writeFileSync(
      join(ws.dir, 'part.csv'),
      header + rows.slice(0, 1200).join(''),
    );
    writeFileSync(join(ws.dir, 'all.csv'), header + rows.join(''));
    const first = await ws.cli(db, [
      'users',
      'import',
      join(ws.dir, 'part.csv'),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      imported: 1200,
      already_present: 0,
      rejected: 0,
    });

    const second = await ws.cli(db, [
      'users',
      'import',
      join(ws.dir, 'all.csv'),
    ]);
    expect(second.code).toBe(1);
    const summary = JSON.parse(second.stdout);
    expect(summary).toMatchObject({
      imported: n - 1200 - 1,
      already_present: 1200,
      rejected: 1,
      rows: n,
    });
    expect(second.stderr).toMatch(
      /line 1502: email: "not-an-email" is not a valid e-mail address \(skipped\)/,
    );
    // Not a terminal: plain progress lines, no carriage returns.
    expect(second.stderr).toMatch(
      /^import: 100\.0% 3,000 rows .* rows\/s {2}ETA/m,
    );
    expect(second.stderr).not.toContain('\r');

    const exported = await ws.cli(db, [
      'users',
      'export',
      '--output',
      join(ws.dir, 'out.jsonl'),
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`exported ${n - 1} users`);
    expect(statSync(join(ws.dir, 'out.jsonl')).mode & 0o777).toBe(0o600);
    const records = readFileSync(join(ws.dir, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).toHaveLength(n - 1);
    expect(records[2]).toMatchObject({
      username: 'bulk_2',
      email: 'Bulk2@example.com',
      display_name: 'Bulk, number 2',
      roles: ['player'],
      email_verified: true,
      banned: false,
      password_hash: hash,
    });
    expect(
      (
        await ws.cli(db, [
          'users',
          'export',
          '--output',
          join(ws.dir, 'out.jsonl'),
        ])
      ).code,
    ).not.toBe(0);

    const copy = await ws.freshDatabase('copy');
    const again = await ws.cli(copy, [
      'users',
      'import',
      join(ws.dir, 'out.jsonl'),
    ]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      imported: n - 1,
      rejected: 0,
    });
    const csv = await ws.cli(copy, ['users', 'export', '--format', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe(
      'username,email,display_name,roles,email_verified,banned,password_hash,created_at',
    );
    expect(csv.stdout).toContain(
      `bulk_2,Bulk2@example.com,"Bulk, number 2",player,true,false,${hash},`,
    );
    const service = await ws.service(copy);
    try {
      expect(
        (await login(service, 'bulk_2999', 'bulk-password-1')).statusCode,
      ).toBe(200);
      expect(await service.runtime.storage.users.count()).toBe(n - 1);
      expect(
        (
          await service.runtime.storage.audit.list(
            { action: 'users.export' },
            0,
            10,
          )
        ).entries[0],
      ).toMatchObject({
        actor: 'cli',
        target: 'stdout',
        detail: { users: n - 1, format: 'csv' },
      });
    } finally {
      await service.close();
    }
  }, 120_000);

  it('exits 2 with usage on bad arguments', async () => {
    const db = await ws.freshDatabase('args');
    for (const args of [
      ['users', 'import'],
      ['users', 'import', join(ws.dir, 'missing.jsonl')],
      ['users', 'export', '--format', 'xml'],
      ['users', 'frob'],
    ]) {
      const run = await ws.cli(db, args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('usage: account-center');
    }
  });
});
