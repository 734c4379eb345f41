import { pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { hash as argon2Hash, Algorithm } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import {
  hashProblem,
  keycloakCredentialToHash,
  verifyForeign,
} from '../../src/platform/crypto/password-formats.js';
import { Passwords } from '../../src/platform/crypto/passwords.js';

const b64 = (b: Buffer) => b.toString('base64');

/** Hashes as the other systems' own libraries make them. */
function scryptHash(password: string, ln = 14): string {
  const salt = randomBytes(16);
  return `$scrypt$ln=${ln},r=8,p=1$${b64(salt)}$${b64(scryptSync(password, salt, 32, { N: 2 ** ln, r: 8, p: 1 }))}`;
}
function djangoHash(
  password: string,
  salt = 'Xq3vzR1ea0Kd',
  iterations = 1000,
): string {
  return `pbkdf2_sha256$${iterations}$${salt}$${b64(pbkdf2Sync(password, salt, iterations, 32, 'sha256'))}`;
}
/** What Keycloak stores for pbkdf2-sha256: 16 random salt bytes, a 512-bit key, both base64. */
function keycloakCredential(
  password: string,
  algorithm = 'pbkdf2-sha256',
  digest = 'sha256',
  iterations = 1000,
) {
  const salt = randomBytes(16);
  return {
    type: 'password',
    secretData: JSON.stringify({
      value: b64(pbkdf2Sync(password, salt, iterations, 64, digest)),
      salt: b64(salt),
      additionalParameters: {},
    }),
    credentialData: JSON.stringify({
      hashIterations: iterations,
      algorithm,
      additionalParameters: {},
    }),
  };
}

describe('foreign password hashes', () => {
  it('bcrypt from bcryptjs ($2a$, $2b$) and PHP ($2y$)', async () => {
    const h = bcrypt.hashSync('hunter22-bcrypt', 5);
    expect(hashProblem(h)).toBeUndefined();
    expect(await verifyForeign(h, 'hunter22-bcrypt')).toBe(true);
    expect(await verifyForeign(h, 'hunter22-bcrypX')).toBe(false);
    const y = h.replace(/^\$2[ab]\$/, '$2y$');
    expect(await verifyForeign(y, 'hunter22-bcrypt')).toBe(true);
    // bcryptjs 2.x and most older libraries wrote $2a$: the same computation for such passwords.
    const a = bcrypt.hashSync('other-password', 4).replace(/^\$2b\$/, '$2a$');
    expect(await verifyForeign(a, 'other-password')).toBe(true);
  });

  it("scrypt from node's crypto.scrypt", async () => {
    const h = scryptHash('scrypt-password-1');
    expect(hashProblem(h)).toBeUndefined();
    expect(await verifyForeign(h, 'scrypt-password-1')).toBe(true);
    expect(await verifyForeign(h, 'scrypt-password-2')).toBe(false);
  });

  it("Django's pbkdf2_sha256 from node's crypto.pbkdf2", async () => {
    const h = djangoHash('django-password');
    expect(await verifyForeign(h, 'django-password')).toBe(true);
    expect(await verifyForeign(h, 'django-passwore')).toBe(false);
  });

  it("Keycloak credentials: a realm export's, and ones made with node's pbkdf2 (sha256, sha512, sha1)", async () => {
    // From a published Keycloak realm export (user alice, password alice-password).
    const exported = keycloakCredentialToHash({
      secretData:
        '{"value":"KqABIiReBuRWbP4pBct3W067pNvYzeN7ILBV+8vT8nuF5cgYs2fdl2QikJT/7bGTW/PBXg6CYLwJQFYrBK9MWg==","salt":"EPgscX9CQz7UnuZDNZxtMw=="}',
      credentialData: '{"hashIterations":27500,"algorithm":"pbkdf2-sha256"}',
    });
    expect(exported).toBe(
      '$pbkdf2-sha256$i=27500$EPgscX9CQz7UnuZDNZxtMw==$KqABIiReBuRWbP4pBct3W067pNvYzeN7ILBV+8vT8nuF5cgYs2fdl2QikJT/7bGTW/PBXg6CYLwJQFYrBK9MWg==',
    );
    expect(await verifyForeign(exported, 'alice-password')).toBe(true);
    expect(await verifyForeign(exported, 'bob-password')).toBe(false);
    for (const [algorithm, digest] of [
      ['pbkdf2-sha256', 'sha256'],
      ['pbkdf2-sha512', 'sha512'],
      ['pbkdf2', 'sha1'],
    ] as const) {
      const h = keycloakCredentialToHash(
        keycloakCredential('kc-password', algorithm, digest),
      );
      expect(h.startsWith(`$pbkdf2-${digest}$i=1000$`)).toBe(true);
      expect(await verifyForeign(h, 'kc-password')).toBe(true);
      expect(await verifyForeign(h, 'kc-passwort')).toBe(false);
    }
    expect(() =>
      keycloakCredentialToHash({
        secretData: '{"value":"x","salt":"y"}',
        credentialData: '{"algorithm":"md5"}',
      }),
    ).toThrow(/not supported/);
  });

  it('refuses unknown formats and costs that would stall a sign-in', () => {
    expect(hashProblem('md5$abc')).toMatch(/unknown password hash format/);
    expect(hashProblem('')).toMatch(/unknown/);
    expect(
      hashProblem(bcrypt.hashSync('x', 4).replace(/\$04\$/, '$20$')),
    ).toMatch(/bcrypt cost/);
    expect(
      hashProblem(
        `$scrypt$ln=25,r=8,p=1$${b64(randomBytes(16))}$${b64(randomBytes(32))}`,
      ),
    ).toMatch(/scrypt N 2\^25 is over the limit/);
    expect(
      hashProblem(`pbkdf2_sha256$99999999$salt$${b64(randomBytes(32))}`),
    ).toMatch(/iterations/);
  });
});

describe('Passwords', () => {
  const passwords = new Passwords();

  it('verifies imported hashes and argon2 of other parameters; only argon2id counts as current', async () => {
    const argon2i = await argon2Hash('argon-password', {
      algorithm: Algorithm.Argon2i,
      memoryCost: 4096,
      timeCost: 1,
    });
    for (const [stored, password] of [
      [bcrypt.hashSync('pw-bcrypt-1', 4), 'pw-bcrypt-1'],
      [scryptHash('pw-scrypt-1'), 'pw-scrypt-1'],
      [djangoHash('pw-django-1'), 'pw-django-1'],
      [argon2i, 'argon-password'],
    ] as const) {
      expect(await passwords.verify(stored, password)).toBe(true);
      expect(await passwords.verify(stored, `${password}x`)).toBe(false);
      expect(passwords.needsRehash(stored)).toBe(true);
    }
    const own = await passwords.hash('own-password');
    expect(passwords.needsRehash(own)).toBe(false);
    expect(await passwords.verify(own, 'own-password')).toBe(true);
  });
});

describe('import rows', () => {
  it("unwraps Django's argon2$ and bcrypt$ prefixes and checks the hash before import", async () => {
    const { parseRecord } = await import(
      '../../src/features/admin/user-transfer.js'
    );
    const argon = await argon2Hash('django-argon', {
      algorithm: Algorithm.Argon2id,
      memoryCost: 4096,
      timeCost: 1,
    });
    const bc = bcrypt.hashSync('django-bcrypt', 4);
    expect(
      parseRecord(
        {
          username: 'dj_argon',
          email: 'a@example.com',
          password_hash: `argon2${argon}`,
        },
        1,
      ).passwordHash,
    ).toBe(argon);
    expect(
      parseRecord(
        {
          username: 'dj_bcrypt',
          email: 'b@example.com',
          password_hash: `bcrypt$${bc}`,
        },
        1,
      ).passwordHash,
    ).toBe(bc);
    expect(() =>
      parseRecord(
        {
          username: 'dj_sha',
          email: 'c@example.com',
          password_hash: `bcrypt_sha256$${bc}`,
        },
        1,
      ),
    ).toThrow(/password_hash: unknown/);
    expect(await new Passwords().verify(argon, 'django-argon')).toBe(true);
  });
});
