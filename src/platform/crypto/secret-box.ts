import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  randomBytes,
} from 'node:crypto';
import { derivedKey } from './derived-key.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

/** The bytes of a base64url field, or undefined when they are not `length` long. */
function bytesOf(
  field: string | undefined,
  length: number,
): Buffer | undefined {
  if (field === undefined) return undefined;
  const bytes = Buffer.from(field, 'base64url');
  return bytes.length === length ? bytes : undefined;
}

/**
 * Secrets that must be read back (authenticator-app secrets, private signing keys) are stored
 * encrypted with AES-256-GCM under a key derived (HKDF-SHA256) from JWT_SECRET for one
 * purpose, and one-time codes that only need comparing (recovery codes) as an HMAC under
 * another derived key: a database dump alone reveals neither.
 *
 * One envelope for every sealed value: `v1.<iv>.<ciphertext>.<tag>`, base64url. Private
 * signing keys stored by earlier releases carry the tag before the ciphertext
 * (`v1.<iv>.<tag>.<ciphertext>`); both layouts are read. GCM accepts only the real tag, so
 * the layout that opens is the one the value was written in: reading never needs to know
 * where a value came from.
 */
export class SecretBox {
  private readonly key: Buffer;

  /**
   * `purpose` and `salt` are the HKDF info and salt. They are part of every stored value's
   * key: a purpose in use keeps its strings for as long as values sealed under it are kept.
   */
  constructor(masterSecret: string, purpose: string, salt = 'account-center') {
    this.key = derivedKey(masterSecret, purpose, salt);
  }

  /**
   * `context`, when given, is bound as additional authenticated data (a signing key's kid):
   * the sealed text then opens only for that same context, so stored rows cannot be swapped.
   */
  seal(plain: string, context?: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, {
      authTagLength: TAG_BYTES,
    });
    if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      body.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  /** Throws when the text was not sealed with this key and context (another JWT_SECRET, or tampered). */
  open(sealed: string, context?: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION)
      throw new Error('unknown sealed secret format');
    const [, iv, second, third] = parts as [string, string, string, string];
    const plain =
      this.openLayout(iv, second, third, context) ??
      this.openLayout(iv, third, second, context);
    if (plain === undefined)
      throw new Error('the sealed secret does not open with this key');
    return plain;
  }

  /** A keyed hash for values that are only ever compared. */
  mac(value: string): string {
    return createHmac('sha256', this.key).update(value, 'utf8').digest('hex');
  }

  private openLayout(
    ivField: string,
    bodyField: string,
    tagField: string,
    context: string | undefined,
  ): string | undefined {
    const iv = bytesOf(ivField, IV_BYTES);
    // Only a full-length tag: a shortened one would be easier to forge.
    const tag = bytesOf(tagField, TAG_BYTES);
    if (iv === undefined || tag === undefined) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, {
        authTagLength: TAG_BYTES,
      });
      if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(Buffer.from(bodyField, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
