/**
 * The ALTCHA proof-of-work CAPTCHA (docs/api.md §16.1). A challenge is an HMAC-signed hash
 * of a random salt and a hidden number below CAPTCHA_COST; the browser finds the number by
 * trying them all (half of CAPTCHA_COST SHA-256 hashes on average) and sends back the
 * `captcha` payload. Nothing leaves the site: altcha-lib makes and checks challenges here.
 */
import { createHash } from 'node:crypto';
import { createChallenge, extractParams } from 'altcha-lib';
import { safeEqual } from '../../platform/crypto/random.js';
import { derivedKey } from '../../platform/crypto/derived-key.js';
import { fail } from '../../errors/index.js';
import type { Config } from '../../config/index.js';
import type { CaptchaUseRepo } from './repository.js';
import type { CaptchaChallenge } from './contract.js';

/** Failed password sign-ins from an address or on an account after which the CAPTCHA is asked for (docs/api.md §16.1). */
export const CAPTCHA_AFTER_FAILED_SIGN_INS = 3;

/** How long a challenge may be solved and used (docs/api.md §16.1). */
export const CAPTCHA_TTL_MS = 10 * 60_000;
/** A payload is base64 of a small JSON object; anything longer is not one of ours. */
const MAX_PAYLOAD_LENGTH = 2048;

interface Payload {
  algorithm: 'SHA-256';
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

/** The payload the widget (or an API caller) sends, when it has the shape of one; undefined otherwise. */
function parsePayload(raw: string): Payload | undefined {
  if (raw.length > MAX_PAYLOAD_LENGTH) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const p = value as Record<string, unknown>;
  const ok =
    p.algorithm === 'SHA-256' &&
    typeof p.challenge === 'string' &&
    /^[0-9a-f]{64}$/.test(p.challenge) &&
    typeof p.number === 'number' &&
    Number.isSafeInteger(p.number) &&
    p.number >= 0 &&
    typeof p.salt === 'string' &&
    typeof p.signature === 'string';
  return ok ? (p as unknown as Payload) : undefined;
}

export type CaptchaDeps = {
  readonly config: Config;
  readonly now: () => number;
  readonly storage: { readonly captchaUses: CaptchaUseRepo };
};

export class Captcha {
  /** Challenges are signed with a key of their own, derived from JWT_SECRET so every instance shares it. */
  private readonly hmacKey: string;

  constructor(private readonly ctx: CaptchaDeps) {
    this.hmacKey = derivedKey(ctx.config.jwtSecret, 'altcha-captcha').toString(
      'hex',
    );
  }

  get enabled(): boolean {
    return this.ctx.config.captcha === 'altcha';
  }

  /**
   * Whether a password sign-in needs a solved CAPTCHA now: the CAPTCHA is on and the failed
   * tries from the address or on the account (`failedTries`, the login throttle's count)
   * reached CAPTCHA_AFTER_FAILED_SIGN_INS. The one rule for every way a password is taken:
   * /login then asks for a solution, the Yggdrasil API (which cannot show one) refuses.
   */
  async signInGateUp(failedTries: () => Promise<number>): Promise<boolean> {
    return (
      this.enabled && (await failedTries()) >= CAPTCHA_AFTER_FAILED_SIGN_INS
    );
  }

  /** A fresh challenge, valid CAPTCHA_TTL_MS; 404 when CAPTCHA=off (the route then does not exist). */
  async challenge(): Promise<CaptchaChallenge> {
    if (!this.enabled) throw fail('notFound');
    const maxnumber = this.ctx.config.captchaCost;
    const { challenge, salt, signature } = await createChallenge({
      algorithm: 'SHA-256',
      hmacKey: this.hmacKey,
      maxnumber,
      expires: new Date(this.ctx.now() + CAPTCHA_TTL_MS),
    });
    return { algorithm: 'SHA-256', challenge, maxnumber, salt, signature };
  }

  /**
   * Checks a solution and uses it up; 400 `请完成人机验证` when it is missing, wrong, expired
   * or already used. The use is one insert against a unique key, so of any number of
   * parallel replays on any number of instances exactly one passes.
   */
  async require(solution: string | undefined): Promise<void> {
    if (!this.enabled) return;
    const payload = solution === undefined ? undefined : parsePayload(solution);
    if (!payload) throw fail('captchaRequired');
    const expiresS = Number(extractParams(payload).expires);
    // Expiry is judged on the service's clock, not altcha-lib's, so it follows the injected one.
    if (!Number.isSafeInteger(expiresS) || expiresS * 1000 < this.ctx.now())
      throw fail('captchaRequired');
    if (!(await this.solves(payload))) throw fail('captchaRequired');
    const challengeHash = createHash('sha256')
      .update(payload.challenge)
      .digest('hex');
    if (
      !(await this.ctx.storage.captchaUses.claim(
        challengeHash,
        expiresS * 1000,
      ))
    )
      throw fail('captchaRequired');
  }

  /**
   * altcha-lib's verifySolution, with its two comparisons made in constant time: the
   * challenge is recomputed from the salt and the number, and must carry our signature.
   */
  private async solves(payload: Payload): Promise<boolean> {
    const check = await createChallenge({
      algorithm: payload.algorithm,
      hmacKey: this.hmacKey,
      number: payload.number,
      salt: payload.salt,
    });
    return (
      safeEqual(check.challenge, payload.challenge) &&
      safeEqual(check.signature, payload.signature)
    );
  }
}
