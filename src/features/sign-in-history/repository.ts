/** One completed sign-in as stored (docs/api.md §17); times in milliseconds. */
export interface SignInRecord {
  userId: number;
  at: number;
  ip: string;
  userAgent: string;
  /** `password`, `email_code`, `passkey`, `upstream:{id}`, `device` or `oidc`. */
  method: string;
}

/** What the account's earlier sign-ins since a time say about a new one. */
export interface Familiarity {
  /** Earlier sign-ins of the account in the window from the same user agent. */
  sameBrowser: number;
  /** And from the same address. */
  sameAddress: number;
}

export interface SignInHistoryRepo {
  append(record: SignInRecord): Promise<void>;
  /** Newest first, only those at or after `since`. */
  listRecent(
    userId: number,
    since: number,
    limit: number,
  ): Promise<SignInRecord[]>;
  familiarity(
    userId: number,
    since: number,
    ip: string,
    userAgent: string,
  ): Promise<Familiarity>;
  /** Deletes the rows older than `before`; answers how many went. */
  purgeOlderThan(before: number): Promise<number>;
  /** A deleted account's history: the rows hold addresses, so they go with it. */
  deleteAllOf(userId: number): Promise<void>;
  /**
   * Notes the account's first sign-in at `at` unless one was noted before; true for exactly
   * one caller per account, however many sign in at once.
   */
  claimFirstSignIn(userId: number, at: number): Promise<boolean>;
  /** Whether the new-browser notice is on; on unless the person turned it off. */
  noticeEnabled(userId: number): Promise<boolean>;
  setNoticeEnabled(userId: number, enabled: boolean): Promise<void>;
}
