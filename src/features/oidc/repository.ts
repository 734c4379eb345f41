/** Repository interfaces of the OpenID provider: signing keys, refresh tokens, consents: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */

export interface SigningKey {
  kid: string;
  /** 1 for the first key, +1 per rotation; the highest is the current key. */
  generation: number;
  alg: string;
  /** Public JWK as JSON text. */
  publicJwk: string;
  /** Private JWK, sealed with AES-256-GCM (platform/crypto/secret-box.ts), never stored in clear. */
  privateJwkEnc: string;
  createdAt: number;
  /** When a newer key replaced this one; null for the current key. */
  retiredAt: number | null;
}

export interface SigningKeyRepo {
  /**
   * Inserts the key if its generation is free and marks the older keys retired; false when
   * another instance already created that generation (then re-read).
   */
  insert(key: Omit<SigningKey, 'retiredAt'>): Promise<boolean>;
  /** Newest first. */
  list(limit: number): Promise<SigningKey[]>;
  current(): Promise<SigningKey | undefined>;
}

export interface RefreshFamily {
  familyId: string;
  userId: number;
  clientId: string;
  createdAt: number;
  revokedAt: number | null;
  /** The center sign-in the authorization came from (Back-Channel Logout); absent for device grants. */
  sessionId?: string | null;
  /**
   * Whether ID tokens name this family as `sid` (scope openid): its client then takes part in
   * that sign-in and is logged out when it ends, even holding no refresh token (Back-Channel
   * Logout 1.0 §2.7). Recorded when the family starts, before its first ID token is issued.
   */
  issuesIdTokens?: boolean;
}

/** A family still usable: not revoked, with a refresh token not expired. */
export interface LiveRefreshFamily {
  familyId: string;
  clientId: string;
  createdAt: number;
  /** Creation (ms) of its newest refresh token: when the client last refreshed, or started. */
  lastUsedAt: number;
}

export interface RefreshToken {
  tokenHash: string;
  familyId: string;
  clientId: string;
  userId: number;
  scope: string;
  /** When the person signed in (ms). */
  authTime: number;
  /** How, as the ID token's `amr` values separated by spaces; null: not said. */
  amr: string | null;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
  revokedAt: number | null;
}

/** A refresh token as a refresh request first reads it, with how far its rotation had got by then. */
export interface PresentedRefreshToken extends RefreshToken {
  /** The token the rotation that used this one stores (null while unused, and for tokens used before it was recorded). */
  successorHash: string | null;
  /**
   * Whether that rotation had stored its successor by this read; true for a token used before
   * successors were recorded (its rotation finished long ago), false while unused.
   */
  successorStored: boolean;
}

export interface RefreshTokenRepo {
  createFamily(family: Omit<RefreshFamily, 'revokedAt'>): Promise<void>;
  findFamily(familyId: string): Promise<RefreshFamily | undefined>;
  /** Idempotent; true when this call revoked it. */
  revokeFamily(familyId: string, now: number): Promise<boolean>;
  /**
   * The center sign-in `sessionId` of `userId` ended: revokes the unrevoked families started
   * from it, but those granted `offline_access`; returns the ids revoked. Like the other bulk
   * revocations, it queues a Back-Channel Logout token for each of them (the kept ones too)
   * whose client registered a `backchannel_logout_uri`, in the same transaction.
   */
  revokeFamiliesOfSession(
    sessionId: string,
    userId: number,
    now: number,
  ): Promise<string[]>;
  /** Revokes every live family of this user for this client (consent revoked); returns their ids. */
  revokeFamiliesOf(
    userId: number,
    clientId: string,
    now: number,
  ): Promise<string[]>;
  /**
   * The user's live families started after `createdAfter` (the user's cut-off: older ones are
   * refused anyway), newest first.
   */
  listLiveFamilies(
    userId: number,
    now: number,
    createdAfter: number,
    limit: number,
  ): Promise<LiveRefreshFamily[]>;
  /** Revokes every live family of the user (as listed above); returns their ids. */
  revokeLiveFamiliesOf(
    userId: number,
    now: number,
    createdAfter: number,
  ): Promise<string[]>;
  create(
    token: Omit<RefreshToken, 'usedAt' | 'revokedAt' | 'amr'> & {
      amr?: string | null;
    },
  ): Promise<void>;
  findByHash(tokenHash: string): Promise<RefreshToken | undefined>;
  /** The token and its rotation's progress, read in one statement, so both describe the same moment. */
  findPresented(tokenHash: string): Promise<PresentedRefreshToken | undefined>;
  /**
   * Rotation: marks the token used, naming the successor the rotation will store, if, and only
   * if, it is unused, unrevoked, unexpired and its family is live (one conditional UPDATE);
   * exactly one concurrent caller gets the row.
   */
  use(
    tokenHash: string,
    now: number,
    successorHash: string,
  ): Promise<RefreshToken | undefined>;
  /** The newest token of a family (the one a rotation issued last). */
  latestInFamily(familyId: string): Promise<RefreshToken | undefined>;
  purgeExpired(before: number): Promise<number>;
}

export interface Consent {
  userId: number;
  clientId: string;
  /** The scopes the person granted this client. */
  scopes: string[];
  createdAt: number;
  updatedAt: number;
}

export interface ConsentRepo {
  /** Creates or replaces the granted scope set of this user and client (callers pass the union they want kept). */
  upsert(
    userId: number,
    clientId: string,
    scopes: string[],
    now: number,
  ): Promise<Consent>;
  find(userId: number, clientId: string): Promise<Consent | undefined>;
  /** Newest first. */
  listByUser(userId: number): Promise<Consent[]>;
  /** True when a consent was deleted. */
  delete(userId: number, clientId: string): Promise<boolean>;
}
