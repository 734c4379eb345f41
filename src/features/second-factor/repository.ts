/**
 * Repository interfaces of the second factors (authenticator app, recovery codes, passkeys).
 * Times are unix milliseconds.
 */

export interface TotpFactor {
  userId: number;
  /** The secret, encrypted by the service; storage never sees it in clear. */
  secretEnc: string;
  /** False between "set up" and the first valid code that confirms it. */
  enabled: boolean;
  /** Newest time step already accepted (replay guard); null before the first. */
  lastStep: number | null;
  createdAt: number;
}

export interface SecondFactorRepo {
  findTotp(userId: number): Promise<TotpFactor | undefined>;
  /** Stores a new, not yet confirmed secret; refused (false) while one is enabled. */
  savePendingTotp(
    userId: number,
    secretEnc: string,
    now: number,
  ): Promise<boolean>;
  /**
   * Records that the code of `step` was used, if, and only if, no code of this step or a later
   * one was (one conditional UPDATE): of parallel requests with one code exactly one wins.
   */
  claimTotpStep(userId: number, step: number): Promise<boolean>;
  /** Turns a pending secret on and stores its recovery codes, in one transaction. */
  enableTotp(userId: number, recoveryCodeHashes: string[]): Promise<boolean>;
  /** Removes the secret and the recovery codes; true when there was a secret. */
  removeTotp(userId: number): Promise<boolean>;
  /** Replaces every recovery code of the user. */
  replaceRecoveryCodes(userId: number, codeHashes: string[]): Promise<void>;
  /** Marks an unused recovery code used (conditional UPDATE); true for the one caller that did. */
  useRecoveryCode(
    userId: number,
    codeHash: string,
    now: number,
  ): Promise<boolean>;
  unusedRecoveryCodes(userId: number): Promise<number>;
}

export interface Passkey {
  /** base64url credential id, as WebAuthn gives it. */
  credentialId: string;
  userId: number;
  /** base64url COSE public key. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export type ChallengePurpose = 'register' | 'login';

export interface PasskeyRepo {
  /** Throws `UniqueViolation('credential_id')` when the credential is already registered. */
  create(
    passkey: Omit<Passkey, 'lastUsedAt'> & { lastUsedAt?: number | null },
  ): Promise<void>;
  find(credentialId: string): Promise<Passkey | undefined>;
  listByUser(userId: number): Promise<Passkey[]>;
  recordUse(credentialId: string, counter: number, now: number): Promise<void>;
  /** Deletes one passkey of this user; false when the user has no such passkey. */
  remove(userId: number, credentialId: string): Promise<boolean>;
  removeAll(userId: number): Promise<number>;
  saveChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    userId: number | null,
    expiresAt: number,
  ): Promise<void>;
  /**
   * Uses up a live challenge of that purpose (one conditional UPDATE): of parallel answers to
   * one challenge exactly one gets it. Returns the user it was issued to (null for sign-in).
   */
  takeChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    now: number,
  ): Promise<{ userId: number | null } | undefined>;
  purgeChallenges(before: number): Promise<number>;
}
