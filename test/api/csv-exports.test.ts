import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { cliWorkspace } from '../helpers/cli.js';

/** Cells a spreadsheet would run as formulas, and one that already starts with the escape. */
const RISKY = [
  '=HYPERLINK("https://evil.example/","open")',
  '+1+2',
  '-minus sign',
  '@SUM(A1)',
  "'=quoted",
  'plain name',
];

const ws = cliWorkspace('ac-csv-');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await ws.dispose();
});

describe('CSV exports defuse formulas (docs/api.md §10)', () => {
  it('users export --format csv prefixes = + - @ with a quote, and its import gives the names back', async () => {
    const db = await ws.freshDatabase('csv_users');
    const rows = RISKY.map((display_name, i) =>
      JSON.stringify({
        username: `csv_user_${i}`,
        email: `csv${i}@example.com`,
        display_name,
      }),
    );
    writeFileSync(join(ws.dir, 'risky.jsonl'), `${rows.join('\n')}\n`);
    expect(
      (await ws.cli(db, ['users', 'import', join(ws.dir, 'risky.jsonl')])).code,
    ).toBe(0);
    const out = join(ws.dir, 'risky.csv');
    const exported = await ws.cli(db, [
      'users',
      'export',
      '--format',
      'csv',
      '--output',
      out,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const records = parse(readFileSync(out, 'utf8'), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(records.map((r) => r.display_name)).toEqual([
      `'=HYPERLINK("https://evil.example/","open")`,
      "'+1+2",
      "'-minus sign",
      "'@SUM(A1)",
      "''=quoted",
      'plain name',
    ]);
    expect(records.every((r) => !/^[=+\-@\t\r]/.test(r.display_name!))).toBe(
      true,
    );

    const copy = await ws.freshDatabase('csv_copy');
    const imported = await ws.cli(copy, ['users', 'import', out]);
    expect(imported.code, imported.stderr).toBe(0);
    const service = await ws.service(copy);
    try {
      for (const [i, name] of RISKY.entries())
        expect(
          (await service.runtime.storage.users.findByUsername(`csv_user_${i}`))
            ?.displayName,
        ).toBe(name);
    } finally {
      await service.close();
    }
  }, 120_000);

  it('the audit log download does the same, through the same writer', async () => {
    const admin = await t.admin();
    const targets = [...RISKY, '\ttabbed', '\rreturned'];
    for (const target of targets)
      await t.runtime.services.audit.record('csv.test', {
        actor: admin.username,
        target,
      });
    const res = await t.get(
      `/api/v1/auth/admin/audit/export?action=csv.test`,
      admin.token,
    );
    expect(res.statusCode).toBe(200);
    const records = parse(res.body.replace(/^\ufeff/, ''), {
      columns: true,
    }) as Array<Record<string, string>>;
    expect(records.map((r) => r.target).sort()).toEqual(
      [
        `'=HYPERLINK("https://evil.example/","open")`,
        "'+1+2",
        "'-minus sign",
        "'@SUM(A1)",
        "''=quoted",
        'plain name',
        "'\ttabbed",
        "'\rreturned",
      ].sort(),
    );
  });
});
