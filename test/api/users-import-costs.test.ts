import { pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Algorithm, hash as argon2 } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { cliWorkspace, loginWith } from '../helpers/cli.js';

const ws = cliWorkspace('ac-import-costs-');
afterAll(() => ws.dispose());

const PASSWORD = 'cost-cap-pass-1';
const b64 = (b: Buffer) => b.toString('base64');
const salt = randomBytes(16);
const argon2id = (memoryCost: number, timeCost: number, parallelism: number) =>
  argon2(PASSWORD, {
    algorithm: Algorithm.Argon2id,
    memoryCost,
    timeCost,
    parallelism,
  });
const scryptHash = (ln: number, r: number, p: number) =>
  `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(scryptSync(PASSWORD, salt, 32, { N: 2 ** ln, r, p, maxmem: 2 ** 30 }))}`;
const django = (i: number) =>
  `pbkdf2_sha256$${i}$saltsalt$${b64(pbkdf2Sync(PASSWORD, 'saltsalt', i, 32, 'sha256'))}`;
const rawPbkdf2 = (i: number, bytes: number) =>
  `$pbkdf2-sha256$i=${i}$${b64(salt)}$${b64(pbkdf2Sync(PASSWORD, salt, i, bytes, 'sha256'))}`;
const row = (username: string, password_hash: string) =>
  JSON.stringify({ username, email: `${username}@example.com`, password_hash });

describe('users import: password hashes over the cost limits (docs/api.md §10)', () => {
  it('refuses the whole file, naming each row and its limit, without computing any hash', async () => {
    // Cheap to make for real: over the time and parallelism caps with little memory.
    const overTime = await argon2id(64, 11, 1);
    const overLanes = await argon2id(72, 1, 9);
    // The others would take the very seconds under test to make: real hashes of a low cost
    // with the cost parameter raised just over the cap (refused from the parameter alone).
    const cheapArgon2 = await argon2id(64, 1, 1);
    const rows = [
      row('fine_first', bcrypt.hashSync(PASSWORD, 4)),
      row('over_argon2_m', cheapArgon2.replace('m=64,', 'm=262145,')),
      row('over_argon2_t', overTime),
      row('over_argon2_p', overLanes),
      row(
        'over_bcrypt',
        bcrypt.hashSync(PASSWORD, 4).replace(/^\$2b\$04\$/, '$2b$15$'),
      ),
      row('over_scrypt_n', scryptHash(4, 1, 1).replace('ln=4,', 'ln=21,')),
      row('over_scrypt_p', scryptHash(4, 1, 9)),
      row(
        'over_django',
        django(1).replace('pbkdf2_sha256$1$', 'pbkdf2_sha256$1000001$'),
      ),
      row('over_pbkdf2', rawPbkdf2(1, 32).replace('$i=1$', '$i=1000001$')),
      row('over_pbkdf2_len', rawPbkdf2(1, 65)),
      row('fine_last', ''),
    ];
    const file = join(ws.dir, 'over.jsonl');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const db = await ws.freshDatabase('over');
    const started = Date.now();
    const run = await ws.cli(db, ['users', 'import', file]);
    expect(run.code, run.stderr).toBe(1);
    expect(Date.now() - started).toBeLessThan(60_000);
    const expected: Array<[number, RegExp]> = [
      [
        2,
        /argon2 memory m=262145 KiB is over the limit of 262144 KiB \(256 MiB\)/,
      ],
      [3, /argon2 time t=11 is over the limit of 10/],
      [4, /argon2 parallelism p=9 is over the limit of 8/],
      [5, /bcrypt cost 15 is over the limit of 14/],
      [6, /scrypt N 2\^21 is over the limit of 2\^20/],
      [7, /scrypt p=9 is over the limit of 8/],
      [8, /pbkdf2 iterations 1000001 are over the limit of 1000000/],
      [9, /pbkdf2 iterations 1000001 are over the limit of 1000000/],
      [10, /pbkdf2 hash of 65 bytes is over the limit of 64/],
    ];
    for (const [line, reason] of expected) {
      expect(run.stderr).toMatch(
        new RegExp(
          `^line ${line}: password_hash: ${reason.source} \\(file refused\\)$`,
          'm',
        ),
      );
    }
    expect(run.stderr).toContain(
      'nothing imported: 9 row(s) hold password hashes over the cost limits',
    );
    const service = await ws.service(db);
    try {
      expect(await service.runtime.storage.users.count()).toBe(0);
    } finally {
      await service.close();
    }
  });

  it('imports hashes at each cap, and they sign in', async () => {
    const atCap = {
      at_argon2_m: await argon2id(262_144, 1, 1),
      at_argon2_t: await argon2id(64, 10, 1),
      at_argon2_p: await argon2id(64, 1, 8),
      at_bcrypt: await bcrypt.hash(PASSWORD, 14),
      at_scrypt: scryptHash(20, 2, 1),
      at_django: django(1_000_000),
      at_pbkdf2: rawPbkdf2(1_000, 64),
    };
    const file = join(ws.dir, 'at-cap.jsonl');
    writeFileSync(
      file,
      `${Object.entries(atCap)
        .map(([name, h]) => row(name, h))
        .join('\n')}\n`,
    );
    const db = await ws.freshDatabase('at_cap');
    const run = await ws.cli(db, ['users', 'import', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ imported: 7, rejected: 0 });
    const service = await ws.service(db);
    try {
      for (const name of ['at_argon2_t', 'at_argon2_p', 'at_django']) {
        expect(
          (await loginWith(service, name, PASSWORD)).statusCode,
          name,
        ).toBe(200);
      }
    } finally {
      await service.close();
    }
  }, 120_000);

  it('a hash over the caps that is in the database anyway is refused as a wrong password, not computed', async () => {
    const db = await ws.freshDatabase('stored');
    const file = join(ws.dir, 'stored.jsonl');
    writeFileSync(
      file,
      `${row('stored_over', bcrypt.hashSync(PASSWORD, 4))}\n`,
    );
    expect((await ws.cli(db, ['users', 'import', file])).code).toBe(0);
    const service = await ws.service(db);
    try {
      const user = (await service.runtime.storage.users.findByUsername(
        'stored_over',
      ))!;
      // A real hash of the right password, one pass over the time cap.
      await service.runtime.storage.users.update(
        user.id,
        { passwordHash: await argon2id(64, 11, 1) },
        Date.now(),
      );
      expect(
        (await loginWith(service, 'stored_over', PASSWORD)).statusCode,
      ).toBe(401);
    } finally {
      await service.close();
    }
  });
});
