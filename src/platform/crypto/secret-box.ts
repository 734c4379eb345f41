import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets that must be read back (authenticator-app secrets) are stored encrypted with
 * AES-256-GCM under a key derived from JWT_SECRET for one purpose, and one-time codes that
 * only need comparing (recovery codes) as an HMAC under another derived key: a database dump
 * alone reveals neither.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync('sha256', masterSecret, 'account-center', purpose, 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** Throws when the text was not sealed with this key (another JWT_SECRET, or tampered). */
  open(sealed: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== 'v1' || iv === undefined || body === undefined || tag === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** A keyed hash for values that are only ever compared. */
  mac(value: string): string {
    return createHmac('sha256', this.key).update(value, 'utf8').digest('hex');
  }
}
