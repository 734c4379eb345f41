import {
  createPublicKey,
  createSign,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { SecretBox } from '../../platform/crypto/secret-box.js';
import {
  newKeyPair,
  privateJwtKey,
  type Jwk,
} from '../../platform/jwt/key-pairs.js';
import type { MinecraftKeyRepo, StoredSigningKey } from './repository.js';

/**
 * The derivation of the key that seals the private key (HKDF info and salt): the stored key
 * was sealed under it, so it never changes.
 */
const KEY_SEAL_PURPOSE = 'aes-256-gcm v1';
const KEY_SEAL_SALT = 'account-center/minecraft/signing-key';
/** Bound to the sealed text as additional data, so it opens only as this key. */
const KEY_CONTEXT = 'minecraft-properties';

interface Loaded {
  publicPem: string;
  privateKey: KeyObject;
}

/**
 * The RSA key that signs profile properties (docs/api.md §18.4): created at first start, stored
 * with its private part encrypted, shared by every instance through the database. Launchers
 * and authlib-injector check the signatures with `signaturePublickey` of the metadata.
 */
export class PropertySigningKey {
  private readonly cipher: SecretBox;
  private loading: Promise<Loaded> | undefined;

  constructor(
    private readonly repo: MinecraftKeyRepo,
    jwtSecret: string,
    private readonly now: () => number,
  ) {
    this.cipher = new SecretBox(jwtSecret, KEY_SEAL_PURPOSE, KEY_SEAL_SALT);
  }

  async publicPem(): Promise<string> {
    return (await this.load()).publicPem;
  }

  /** base64 of the SHA1withRSA signature of `value`, as the Yggdrasil specification asks. */
  async sign(value: string): Promise<string> {
    const { privateKey } = await this.load();
    return createSign('RSA-SHA1')
      .update(value, 'utf8')
      .sign(privateKey, 'base64');
  }

  private load(): Promise<Loaded> {
    this.loading ??= this.read().catch((err: unknown) => {
      // A failed read (database away) is retried on the next use.
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async read(): Promise<Loaded> {
    const stored =
      (await this.repo.get()) ??
      (await this.repo.insertOrGet(await this.create()));
    const privateJwk = JSON.parse(
      this.cipher.open(stored.privateJwkEnc, KEY_CONTEXT),
    ) as Jwk;
    return {
      publicPem: stored.publicPem,
      privateKey: privateJwtKey('RS256', KEY_CONTEXT, privateJwk).privateKey,
    };
  }

  private async create(): Promise<StoredSigningKey> {
    const { publicJwk, privateJwk } = await newKeyPair('RS256');
    const publicPem = createPublicKey({
      key: publicJwk as JsonWebKey,
      format: 'jwk',
    })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    return {
      publicPem,
      privateJwkEnc: this.cipher.seal(JSON.stringify(privateJwk), KEY_CONTEXT),
      createdAt: this.now(),
    };
  }
}
