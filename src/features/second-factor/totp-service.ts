import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { fail } from '../../errors/index.js';
import type { User } from '../accounts/index.js';
import type {
  AdminSecondFactorData,
  RecoveryCodesData,
  SecondFactorStatus,
  TotpSetupData,
} from './contract.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import { LoginThrottle, OTP_RULES, type RateLimiter } from '../limits/index.js';
import { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Config } from '../../config/index.js';
import type { AuditLog } from '../audit/index.js';
import type { PasskeyRepo, SecondFactorRepo } from './repository.js';

const RECOVERY_CODE_COUNT = 10;
/** 32 letters and digits without look-alikes (0/o, 1/l): 10 of them carry 50 bits. */
const RECOVERY_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;
/** RFC 6238 step of 30 s; one step either side is accepted (clock drift). */
const STEP_S = 30;

const normaliseRecovery = (code: string) =>
  code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < RECOVERY_LENGTH; i++)
    out += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

export interface SecondFactorDeps {
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly storage: {
    readonly secondFactors: SecondFactorRepo;
    readonly passkeys: PasskeyRepo;
  };
  readonly config: Pick<Config, 'jwtSecret' | 'siteName'>;
}

/**
 * The authenticator-app factor and its recovery codes: enrolment and removal on /account,
 * the second step of the v1 API's sign-ins, and an administrator's removal for a locked-out user.
 * Every code try is counted (per account and address) before it is checked, and an accepted
 * time step is claimed in one conditional UPDATE, so no code works twice.
 */
export class SecondFactorService {
  private readonly secrets: SecretBox;
  private readonly recovery: SecretBox;

  constructor(
    private readonly ctx: SecondFactorDeps,
    private readonly limiter: RateLimiter,
  ) {
    this.secrets = new SecretBox(ctx.config.jwtSecret, 'totp-secret');
    this.recovery = new SecretBox(ctx.config.jwtSecret, 'recovery-code');
  }

  async status(user: User): Promise<Omit<SecondFactorStatus, 'passkeys'>> {
    const totp = await this.ctx.storage.secondFactors.findTotp(user.id);
    const on = totp?.enabled === true;
    return {
      totp: on,
      recovery_codes_left: on
        ? await this.ctx.storage.secondFactors.unusedRecoveryCodes(user.id)
        : 0,
    };
  }

  /** Whether a sign-in of this user needs a second factor. */
  async required(userId: number): Promise<boolean> {
    return (
      (await this.ctx.storage.secondFactors.findTotp(userId))?.enabled === true
    );
  }

  /**
   * The second step of a sign-in whose first factor passed: nothing for a user without a
   * second factor; otherwise `otp` must be a valid authenticator or recovery code. True when
   * a second factor was checked, which the session records (ID tokens report it as `acr`).
   */
  async checkSignIn(
    user: User,
    otp: string | undefined,
    caller: Caller,
    method: string,
  ): Promise<boolean> {
    if (!(await this.required(user.id))) return false;
    if (otp === undefined) throw fail('secondFactorRequired');
    if (!(await this.verifyCounted(user, otp, caller, true))) {
      await this.ctx.audit.record('login.failure', {
        actor: user.username,
        ip: caller.ip,
        target: user.username,
        detail: { method, factor: 'otp' },
      });
      throw fail('badSecondFactor');
    }
    return true;
  }

  /** A new secret, kept unconfirmed until a code from it arrives (enable). */
  async setupTotp(user: User): Promise<TotpSetupData> {
    const secret = generateSecret();
    if (
      !(await this.ctx.storage.secondFactors.savePendingTotp(
        user.id,
        this.secrets.seal(secret),
        this.ctx.now(),
      ))
    )
      throw fail('totpAlreadyOn');
    const otpauthUrl = generateURI({
      issuer: this.ctx.config.siteName,
      label: user.username,
      secret,
    });
    return {
      secret,
      otpauth_url: otpauthUrl,
      qr: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 }),
    };
  }

  /** Turns the factor on with a first valid code; answers the recovery codes, shown this once. */
  async enableTotp(
    user: User,
    code: string,
    caller: Caller,
  ): Promise<RecoveryCodesData> {
    const totp = await this.ctx.storage.secondFactors.findTotp(user.id);
    if (!totp) throw fail('totpNotSetUp');
    if (totp.enabled) throw fail('totpAlreadyOn');
    if (!(await this.verifyCounted(user, code, caller, false)))
      throw fail('wrongOtpCode');
    const codes = this.newRecoveryCodes();
    if (
      !(await this.ctx.storage.secondFactors.enableTotp(user.id, codes.hashes))
    )
      throw fail('totpAlreadyOn');
    await this.ctx.audit.record('totp.enable', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
    return { recovery_codes: codes.plain };
  }

  /** Turns the factor off; the caller proved the password and a code first (ReauthService). */
  async disableTotp(user: User, caller: Caller): Promise<void> {
    await this.requireOn(user);
    await this.ctx.storage.secondFactors.removeTotp(user.id);
    await this.ctx.audit.record('totp.disable', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
  }

  /** New recovery codes (the old ones stop working); the caller proved password and code first. */
  async regenerateRecoveryCodes(
    user: User,
    caller: Caller,
  ): Promise<RecoveryCodesData> {
    await this.requireOn(user);
    const codes = this.newRecoveryCodes();
    await this.ctx.storage.secondFactors.replaceRecoveryCodes(
      user.id,
      codes.hashes,
    );
    await this.ctx.audit.record('recovery_codes.regenerate', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
    return { recovery_codes: codes.plain };
  }

  /**
   * A code (authenticator or recovery) given with a change on /account: counted under the
   * OTP rules, used up like a sign-in's, 400 `两步验证码错误` when wrong.
   */
  async checkAccountCode(
    user: User,
    code: string,
    caller: Caller,
  ): Promise<void> {
    if (!(await this.verifyCounted(user, code, caller, true)))
      throw fail('wrongOtpCode');
  }

  /** For a user who lost every factor: removes the authenticator and the passkeys (audited). */
  async adminRemove(
    user: User,
    actor: string,
    caller?: Caller,
  ): Promise<AdminSecondFactorData> {
    const totpRemoved = await this.ctx.storage.secondFactors.removeTotp(
      user.id,
    );
    const passkeysRemoved = await this.ctx.storage.passkeys.removeAll(user.id);
    await this.ctx.audit.record('second_factor.admin_remove', {
      actor,
      ip: caller?.ip ?? null,
      target: user.username,
      detail: { totp: totpRemoved, passkeys: passkeysRemoved },
    });
    return { totp_removed: totpRemoved, passkeys_removed: passkeysRemoved };
  }

  private async requireOn(user: User): Promise<void> {
    if (!(await this.required(user.id))) throw fail('totpNotOn');
  }

  private newRecoveryCodes(): { plain: string[]; hashes: string[] } {
    const plain = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    return {
      plain,
      hashes: plain.map((c) => this.recovery.mac(normaliseRecovery(c))),
    };
  }

  /**
   * Counts the try on the per-account and per-address rules first (429 when one is used up),
   * then checks the code; a right code gives its try back.
   */
  private async verifyCounted(
    user: User,
    code: string,
    caller: Caller,
    recoveryAllowed: boolean,
  ): Promise<boolean> {
    const throttle = new LoginThrottle(
      this.limiter,
      '',
      user.id,
      caller.ip,
      OTP_RULES,
    );
    await throttle.begin();
    const ok = await this.verifyCode(user, code, recoveryAllowed);
    if (ok) await throttle.succeeded();
    return ok;
  }

  private async verifyCode(
    user: User,
    code: string,
    recoveryAllowed: boolean,
  ): Promise<boolean> {
    const store = this.ctx.storage.secondFactors;
    const trimmed = code.trim();
    if (/^\d{6}$/.test(trimmed)) {
      const totp = await store.findTotp(user.id);
      if (!totp) return false;
      const result = await verify({
        secret: this.secrets.open(totp.secretEnc),
        token: trimmed,
        epoch: Math.floor(this.ctx.now() / 1000),
        epochTolerance: STEP_S,
      });
      // The step is claimed in the database: a code already used (here or on another
      // instance, or by a parallel request) is refused.
      return (
        result.valid &&
        'timeStep' in result &&
        (await store.claimTotpStep(user.id, result.timeStep))
      );
    }
    const recovery = normaliseRecovery(trimmed);
    if (!recoveryAllowed || !/^[a-z0-9]{10}$/.test(recovery)) return false;
    return store.useRecoveryCode(
      user.id,
      this.recovery.mac(recovery),
      this.ctx.now(),
    );
  }
}
