import type { OidcSigningAlg } from '../../config/index.js';
import { SecretBox } from '../../platform/crypto/secret-box.js';
import {
  jwtSigner,
  type JwtClaims,
  type PublicJwtKey,
} from '../../platform/jwt/jwt.js';
import {
  newKeyPair,
  privateJwtKey,
  publicJwtKey,
  type Jwk,
} from '../../platform/jwt/key-pairs.js';
import type { SigningKey, SigningKeyRepo } from './repository.js';

/** Signs a JWT with the current key: its alg and kid in the header, `typ` as given. */
export type JwtSigner = (payload: JwtClaims) => Promise<string>;

export interface ActiveKey {
  kid: string;
  alg: string;
  /** RFC 9068 access tokens (`typ: at+jwt`). */
  signAccess: JwtSigner;
  /** ID tokens (`typ: JWT`). */
  signId: JwtSigner;
  /** Back-Channel Logout 1.0 logout tokens (`typ: logout+jwt`). */
  signLogout: JwtSigner;
}

function activeKey(kid: string, alg: string, privateJwk: Jwk): ActiveKey {
  const key = privateJwtKey(alg, kid, privateJwk);
  return {
    kid,
    alg,
    signAccess: jwtSigner(key, 'at+jwt'),
    signId: jwtSigner(key, 'JWT'),
    signLogout: jwtSigner(key, 'logout+jwt'),
  };
}

interface Loaded {
  generation: number;
  current: ActiveKey;
  /** Public keys by kid, for local verification of our own tokens. */
  publicKeys: Map<string, PublicJwtKey>;
  jwks: { keys: Jwk[] };
  /** The JWKS response body, serialised once per key set. */
  jwksJson: string;
  checkedAt: number;
}

export interface SigningKeysOptions {
  alg: OidcSigningAlg;
  jwtSecret: string;
  /** How long a replaced key stays published (at least the longest token lifetime). */
  publishRetiredMs: number;
}

/** A rotation done elsewhere is seen within this (a cheap read of the newest generation). */
export const KEY_CHECK_MS = 1000;
const KEYS_READ = 20;
/**
 * The derivation of the key that seals private signing keys (HKDF info and salt): every stored
 * key was sealed under it, so it never changes. The kid is bound to each as additional data.
 */
const KEY_SEAL_PURPOSE = 'aes-256-gcm v1';
const KEY_SEAL_SALT = 'account-center/oidc/signing-keys';

/**
 * The provider's asymmetric signing keys (docs/api.md §12.1): created at first start, stored with the
 * private part encrypted, shared by every instance through the database. Each instance signs
 * with the newest generation and re-checks it every KEY_CHECK_MS, so `keys rotate` on any
 * instance (or the CLI) is picked up within a few seconds. Parsed keys and the JWKS body are cached.
 */
export class SigningKeys {
  private readonly cipher: SecretBox;
  private loaded: Loaded | undefined;
  private loading: Promise<Loaded> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly repo: SigningKeyRepo,
    private readonly opts: SigningKeysOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.cipher = new SecretBox(
      opts.jwtSecret,
      KEY_SEAL_PURPOSE,
      KEY_SEAL_SALT,
    );
  }

  /** Keeps the cached key set fresh in the background; the timer never holds the process open. */
  startPolling(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(
      () => void this.refresh().catch(() => undefined),
      KEY_CHECK_MS,
    );
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async current(): Promise<ActiveKey> {
    return (await this.state()).current;
  }

  async jwks(): Promise<{ json: string; generation: number }> {
    const s = await this.state();
    return { json: s.jwksJson, generation: s.generation };
  }

  /** A published public key by kid; an unknown kid triggers one fresh read (a rotation just happened). */
  async publicKey(kid: string): Promise<PublicJwtKey | undefined> {
    const s = await this.state();
    const hit = s.publicKeys.get(kid);
    if (hit || this.now() - s.checkedAt < 500) return hit;
    return (await this.refresh(true)).publicKeys.get(kid);
  }

  /** Makes a new key current; the previous one stays published. Returns the new kid. */
  async rotate(): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const newest = await this.repo.current();
      const created = await this.create((newest?.generation ?? 0) + 1);
      if (created) {
        await this.refresh(true);
        return created;
      }
    }
    throw new Error(
      'signing key rotation raced with other rotations; try again',
    );
  }

  private async state(): Promise<Loaded> {
    this.startPolling();
    const l = this.loaded;
    if (l && this.now() - l.checkedAt < KEY_CHECK_MS * 2) return l;
    return this.refresh();
  }

  private refresh(force = false): Promise<Loaded> {
    this.loading ??= this.load(force).finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(force: boolean): Promise<Loaded> {
    const newest = await this.repo.current();
    if (
      newest &&
      this.loaded &&
      !force &&
      newest.generation === this.loaded.generation
    ) {
      this.loaded.checkedAt = this.now();
      return this.loaded;
    }
    if (!newest) {
      // First start: whichever instance inserts generation 1 wins; the others read its key.
      await this.create(1);
    }
    const keys = await this.repo.list(KEYS_READ);
    if (keys.length === 0) throw new Error('no signing key could be created');
    this.loaded = await this.build(keys);
    return this.loaded;
  }

  private async create(generation: number): Promise<string | undefined> {
    const { kid, publicJwk, privateJwk } = await newKeyPair(this.opts.alg);
    const stored: Jwk = { ...publicJwk, kid, alg: this.opts.alg, use: 'sig' };
    const ok = await this.repo.insert({
      kid,
      generation,
      alg: this.opts.alg,
      publicJwk: JSON.stringify(stored),
      privateJwkEnc: this.cipher.seal(JSON.stringify(privateJwk), kid),
      createdAt: this.now(),
    });
    return ok ? kid : undefined;
  }

  private async build(keys: SigningKey[]): Promise<Loaded> {
    const [newest] = keys as [SigningKey, ...SigningKey[]];
    const privateJwk = JSON.parse(
      this.cipher.open(newest.privateJwkEnc, newest.kid),
    ) as Jwk;
    const current = activeKey(newest.kid, newest.alg, privateJwk);
    const now = this.now();
    // The current key, the one it replaced, and any replaced recently enough that tokens it signed may still live.
    const published = keys.filter(
      (k, i) =>
        i <= 1 ||
        (k.retiredAt !== null &&
          now - k.retiredAt < this.opts.publishRetiredMs),
    );
    const publicKeys = new Map<string, PublicJwtKey>();
    const jwks: Jwk[] = [];
    for (const k of published) {
      const jwk = JSON.parse(k.publicJwk) as Jwk;
      jwks.push(jwk);
      publicKeys.set(k.kid, await publicJwtKey(k.alg, k.kid, jwk));
    }
    const body = { keys: jwks };
    return {
      generation: newest.generation,
      current,
      publicKeys,
      jwks: body,
      jwksJson: JSON.stringify(body),
      checkedAt: now,
    };
  }
}
