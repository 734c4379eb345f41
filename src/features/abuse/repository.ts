/** What abuse protection needs from storage (docs/api.md §16). */

export interface CaptchaUseRepo {
  /**
   * Records that the challenge with this hash was solved and used; false when it already
   * was (a replay). One insert against a unique key: atomic on every instance.
   */
  claim(challengeHash: string, expiresAt: number): Promise<boolean>;
  purgeExpired(now: number): Promise<number>;
}

export interface Invite {
  /** Public id, for the list and for removal; the code itself is only shown once. */
  readonly id: string;
  readonly uses: number;
  readonly used: number;
  readonly expiresAt: number | null;
  readonly createdBy: string;
  readonly createdAt: number;
}

export interface InviteRepo {
  create(invite: Invite & { codeHash: string }): Promise<void>;
  /** Whether the code has a use left and has not expired (nothing is taken). */
  usable(codeHash: string, now: number): Promise<boolean>;
  /** Takes one use of the code when it has one left and has not expired; false otherwise. */
  takeUse(codeHash: string, now: number): Promise<boolean>;
  list(): Promise<Invite[]>;
  remove(id: string): Promise<boolean>;
}
