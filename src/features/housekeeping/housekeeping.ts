import type { Logger } from 'pino';
import type { MailOutboxRepo } from '../../platform/mail/mail-outbox.js';
import type { CaptchaUseRepo } from '../abuse/index.js';
import type { EmailCodeRepo, UserRepo } from '../accounts/index.js';
import type { AuthCodeRepo } from '../authorization/index.js';
import type { MinecraftRepos } from '../minecraft/index.js';
import type { OutboxRepo } from '../moderation/index.js';
import type { RefreshTokenRepo } from '../oidc/index.js';
import type { ReauthGrantRepo } from '../reauth/index.js';
import type { PasskeyRepo } from '../second-factor/index.js';
import type {
  RevocationRepo,
  RevokedTokens,
  SessionRepo,
} from '../sessions/index.js';
import type { SignInHistoryRepo } from '../sign-in-history/index.js';
import type { UpstreamFlowRepo } from '../upstream/index.js';
import { SIGN_IN_RETENTION_MS } from '../sign-in-history/index.js';
import { userEvent } from '../moderation/index.js';

export const HOUSEKEEPING_INTERVAL_MS = 10 * 60_000;
/** Expired authorization codes stay a day, so a late replay still reads as expired or used, not unknown. */
const AUTH_CODE_GRACE_MS = 24 * 3600_000;
const EMAIL_CODE_GRACE_MS = 3600_000;
/** A skin or cape no profile uses is deleted once stored this long (changes delete theirs at once; this catches leftovers). */
export const UNUSED_TEXTURE_GRACE_MS = 3600_000;
/** Delivered and failed webhook deliveries are kept this long: the console shows the recent ones. */
export const SETTLED_DELIVERY_RETENTION_MS = 30 * 24 * 3600_000;
/** The record of an e-mail given up (domain, tries, last error) is kept this long for operators. */
export const FAILED_MAIL_RETENTION_MS = 30 * 24 * 3600_000;

/** The tables housekeeping trims. */
export interface HousekeptRepos {
  readonly revocations: RevocationRepo;
  readonly emailCodes: EmailCodeRepo;
  readonly codes: AuthCodeRepo;
  readonly refreshTokens: RefreshTokenRepo;
  readonly passkeys: PasskeyRepo;
  readonly sessions: SessionRepo;
  readonly reauthGrants: ReauthGrantRepo;
  readonly upstreamFlows: UpstreamFlowRepo;
  readonly signInHistory: SignInHistoryRepo;
  readonly minecraft: MinecraftRepos;
  readonly captchaUses: CaptchaUseRepo;
  readonly users: UserRepo;
  readonly outbox: OutboxRepo;
  readonly mail: MailOutboxRepo;
}

/**
 * Deletes rows nobody can use any more (revocations of expired tokens, old one-time codes,
 * settled deliveries) so tables and the in-memory revoked set stay bounded however long the
 * service runs, and lifts timed bans that have ended so their `user.unbanned` event is sent
 * even when the person never signs in again.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly storage: HousekeptRepos,
    private readonly revokedTokens: Pick<RevokedTokens, 'reload'>,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      void this.run().catch((err: unknown) =>
        this.log.warn({ err }, 'housekeeping failed; retried next round'),
      );
    }, HOUSEKEEPING_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async run(): Promise<void> {
    const now = this.now();
    await this.storage.revocations.purgeExpired(Math.floor(now / 1000));
    await this.storage.emailCodes.purgeExpired(now - EMAIL_CODE_GRACE_MS);
    await this.storage.codes.purgeExpired(now - AUTH_CODE_GRACE_MS);
    await this.storage.refreshTokens.purgeExpired(now - AUTH_CODE_GRACE_MS);
    await this.storage.passkeys.purgeChallenges(now);
    await this.storage.sessions.purgeExpired(now);
    await this.storage.reauthGrants.purgeExpired(now);
    await this.storage.upstreamFlows.purgeExpired(now);
    // Sign-ins are kept 90 days (docs/api.md §17).
    await this.storage.signInHistory.purgeOlderThan(now - SIGN_IN_RETENTION_MS);
    await this.storage.minecraft.tokens.purgeExpired(now);
    await this.storage.minecraft.joins.purgeExpired(now);
    await this.storage.minecraft.textures.purgeUnused(
      now - UNUSED_TEXTURE_GRACE_MS,
    );
    await this.storage.captchaUses.purgeExpired(now);
    // A ban ends by itself at its end (isBanned); this writes it down and announces it, once.
    await this.storage.users.endExpiredBans(now, (user) => [
      userEvent('user.unbanned', user),
    ]);
    await this.storage.outbox.purgeSettled(now - SETTLED_DELIVERY_RETENTION_MS);
    await this.storage.mail.purgeFailures(now - FAILED_MAIL_RETENTION_MS);
    await this.revokedTokens.reload();
  }
}
