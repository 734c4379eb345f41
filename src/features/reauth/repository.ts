/** Repository interfaces of re-authentication grants: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */

/**
 * What a re-authentication grant allows: the second step of one two-step account change, or
 * (`upstream`) the changes of an account without a password, whose owner just signed in
 * again through a linked provider (docs/api.md §14.4).
 */
export type ReauthPurpose = 'passkey' | 'totp' | 'email' | 'upstream';

/** Grants of the first step of a two-step change to its second step (same user, same session). */
export interface ReauthGrantRepo {
  /** Creates or renews the grant; expired grants of the user are dropped on the way. */
  put(
    userId: number,
    sessionKey: string,
    purpose: ReauthPurpose,
    expiresAt: number,
    now: number,
  ): Promise<void>;
  /** Whether a grant of this user, session and purpose is live at `now`. */
  live(
    userId: number,
    sessionKey: string,
    purpose: ReauthPurpose,
    now: number,
  ): Promise<boolean>;
  remove(
    userId: number,
    sessionKey: string,
    purpose: ReauthPurpose,
  ): Promise<void>;
  /** Deletes every grant expired at `now`; returns how many. */
  purgeExpired(now: number): Promise<number>;
}
