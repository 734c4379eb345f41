import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  type VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { bannedAtSignIn, fail } from '../../errors/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import type { ChallengePurpose, Passkey } from './repository.js';
import { isBanned, type User } from '../accounts/index.js';
import type { PasskeyView } from './contract.js';
import { PASSKEY_METHOD, type TokenEnvelope } from '../sessions/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Config } from '../../config/index.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { SignIns, TokenService } from '../sessions/index.js';
import type { PasskeyRepo } from './repository.js';
import type { Logger } from 'pino';

/** A challenge answers once, within five minutes, on whichever instance receives the answer. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const MAX_NAME = 64;

export function passkeyView(p: Passkey): PasskeyView {
  return {
    id: p.credentialId,
    name: p.name,
    created_at: Math.floor(p.createdAt / 1000),
    last_used_at:
      p.lastUsedAt === null ? null : Math.floor(p.lastUsedAt / 1000),
  };
}

export interface PasskeyDeps {
  readonly now: () => number;
  readonly log: Logger;
  readonly tokens: TokenService;
  readonly audit: AuditLog;
  readonly signIns: SignIns;
  readonly storage: {
    readonly passkeys: PasskeyRepo;
    readonly users: UserRepo;
  };
  readonly config: Pick<Config, 'baseUrl' | 'centerAppId' | 'siteName'>;
}

/**
 * Passkeys (WebAuthn discoverable credentials): registered on /account, used on /login
 * without a user name. A passkey sign-in proves possession and, through user verification
 * (the UV flag: the device's PIN or biometric), the user at once: it counts as both factors,
 * so an answer without UV is refused, at registration and at sign-in. The relying-party id and
 * origin come from BASE_URL; challenges are rows, used up by one conditional UPDATE.
 */
export class PasskeyService {
  private readonly origin: string;
  private readonly rpId: string;

  /**
   * `signsInWithoutPasskeys`: whether the account has a password or a link to a provider that
   * is on, so that removing its passkeys does not lock it out.
   */
  constructor(
    private readonly ctx: PasskeyDeps,
    private readonly signsInWithoutPasskeys: (user: User) => Promise<boolean>,
  ) {
    const base = new URL(ctx.config.baseUrl);
    this.origin = base.origin;
    this.rpId = base.hostname;
  }

  async list(user: User): Promise<PasskeyView[]> {
    return (await this.ctx.storage.passkeys.listByUser(user.id)).map(
      passkeyView,
    );
  }

  async registrationOptions(user: User): Promise<Record<string, unknown>> {
    const existing = await this.ctx.storage.passkeys.listByUser(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.ctx.config.siteName,
      rpID: this.rpId,
      userName: user.username,
      userDisplayName: user.displayName,
      userID: new TextEncoder().encode(String(user.id)),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({
        id: p.credentialId,
        transports: p.transports,
      })),
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'required',
      },
    });
    await this.saveChallenge(options.challenge, 'register', user.id);
    return options as unknown as Record<string, unknown>;
  }

  async register(
    user: User,
    name: string | undefined,
    response: unknown,
    caller: Caller,
  ): Promise<PasskeyView> {
    const label = (name ?? '').trim().slice(0, MAX_NAME) || '通行密钥';
    const challenges = this.challengeTaker('register', user.id);
    let info: NonNullable<VerifiedRegistrationResponse['registrationInfo']>;
    try {
      const result = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: challenges.take,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: true,
      });
      if (!result.verified) throw fail('passkeyFailed');
      info = result.registrationInfo;
    } catch (err) {
      throw challenges.fault ?? this.refusal(err);
    }
    const passkey = {
      credentialId: info.credential.id,
      userId: user.id,
      publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      name: label,
      createdAt: this.ctx.now(),
    };
    await this.ctx.storage.passkeys.create(passkey).catch((err: unknown) => {
      throw err instanceof UniqueViolation ? fail('passkeyTaken') : err;
    });
    await this.ctx.audit.record('passkey.add', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
      detail: { name: label },
    });
    return passkeyView({ ...passkey, lastUsedAt: null });
  }

  /**
   * Removes a passkey unless it is the last way in (docs/api.md §14.3), the same rule as an
   * unlink: checked before, so a plain refusal changes nothing, and again after, since two
   * removals at once each see the other's passkey still there: one that finds nothing left
   * puts its passkey back and is refused.
   */
  async remove(
    user: User,
    credentialId: string,
    caller: Caller,
  ): Promise<void> {
    const passkeys = await this.ctx.storage.passkeys.listByUser(user.id);
    const passkey = passkeys.find((p) => p.credentialId === credentialId);
    if (!passkey) throw fail('unknownPasskey');
    if (passkeys.length === 1 && !(await this.signsInWithoutPasskeys(user)))
      throw fail('lastSignInMethod');
    if (!(await this.ctx.storage.passkeys.remove(user.id, credentialId)))
      throw fail('unknownPasskey');
    if (
      (await this.ctx.storage.passkeys.listByUser(user.id)).length === 0 &&
      !(await this.signsInWithoutPasskeys(user))
    ) {
      await this.ctx.storage.passkeys.create(passkey);
      throw fail('lastSignInMethod');
    }
    await this.ctx.audit.record('passkey.remove', {
      actor: user.username,
      ip: caller.ip,
      target: user.username,
    });
  }

  /** Options for a sign-in with any passkey of this site (no user name: discoverable credentials). */
  async authenticationOptions(): Promise<Record<string, unknown>> {
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      userVerification: 'required',
      allowCredentials: [],
    });
    await this.saveChallenge(options.challenge, 'login', null);
    return options as unknown as Record<string, unknown>;
  }

  /** Signs in with a passkey: the same token envelope as a password sign-in. */
  async login(response: unknown, caller: Caller): Promise<TokenEnvelope> {
    const answer = response as AuthenticationResponseJSON;
    const passkey =
      typeof answer.id === 'string'
        ? await this.ctx.storage.passkeys.find(answer.id)
        : undefined;
    if (!passkey) throw fail('passkeyFailed');
    const challenges = this.challengeTaker('login', null);
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response: answer,
        expectedChallenge: challenges.take,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: true,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(
            Buffer.from(passkey.publicKey, 'base64url'),
          ),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
      });
      if (!result.verified) throw fail('passkeyFailed');
      newCounter = result.authenticationInfo.newCounter;
    } catch (err) {
      throw challenges.fault ?? this.refusal(err);
    }
    const user = await this.ctx.storage.users.findById(passkey.userId);
    if (!user) throw fail('passkeyFailed');
    await this.ctx.storage.passkeys.recordUse(
      passkey.credentialId,
      newCounter,
      this.ctx.now(),
    );
    if (isBanned(user, this.ctx.now())) throw bannedAtSignIn(user);
    await this.ctx.audit.signedIn(user, caller, 'passkey');
    // A session like any other sign-in's, so the session list shows it and can end it.
    const issued = await this.ctx.tokens.envelope(
      user,
      this.ctx.config.centerAppId,
    );
    await this.ctx.signIns.record(issued.claims, user, caller, PASSKEY_METHOD);
    return issued.body;
  }

  private async saveChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    userId: number | null,
  ): Promise<void> {
    await this.ctx.storage.passkeys.saveChallenge(
      challenge,
      purpose,
      userId,
      this.ctx.now() + CHALLENGE_TTL_MS,
    );
  }

  /**
   * The library's challenge check: uses the challenge up (single use across instances); a
   * registration's must be the user's own. A storage failure is kept aside, so that it ends
   * as the fault it is rather than as a refused answer.
   */
  private challengeTaker(purpose: ChallengePurpose, userId: number | null) {
    const taker = {
      fault: undefined as unknown,
      take: async (challenge: string): Promise<boolean> => {
        try {
          const taken = await this.ctx.storage.passkeys.takeChallenge(
            challenge,
            purpose,
            this.ctx.now(),
          );
          return taken !== undefined && taken.userId === userId;
        } catch (err) {
          taker.fault = err;
          return false;
        }
      },
    };
    return taker;
  }

  /** The library throws on malformed or unexpected answers: those are the client's, a 400. */
  private refusal(err: unknown): Error {
    if (err instanceof Error && err.name === 'AppError') return err;
    this.ctx.log.debug({ err }, 'passkey answer refused');
    return fail('passkeyFailed');
  }
}
