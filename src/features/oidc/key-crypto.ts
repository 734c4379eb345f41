import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Private signing keys are stored encrypted with AES-256-GCM under a key derived (HKDF-SHA256)
 * from JWT_SECRET, so a database dump alone cannot sign tokens. Format: `v1.<iv>.<tag>.<data>`
 * (base64url); the key id is bound as additional data, so rows cannot be swapped.
 */
const SALT = 'account-center/oidc/signing-keys';
const INFO = 'aes-256-gcm v1';

export class KeyCipher {
  private readonly key: Buffer;

  constructor(jwtSecret: string) {
    this.key = Buffer.from(hkdfSync('sha256', jwtSecret, SALT, INFO, 32));
  }

  encrypt(plain: string, kid: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(kid, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  /** Throws when the secret differs from the one that encrypted it or the text was altered. */
  decrypt(sealed: string, kid: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown signing key encryption format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(kid, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
