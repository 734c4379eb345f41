/** Repository interfaces of accounts and e-mail codes: what the use cases need from storage, nothing about SQL. Times are unix milliseconds. */
import type { OutboxEvent } from '../moderation/index.js';

export interface User {
  id: number;
  username: string;
  email: string;
  displayName: string;
  passwordHash: string;
  emailVerified: boolean;
  roles: string[];
  banned: boolean;
  /** Why, shown to the person at sign-in; empty when no reason was given. */
  banReason: string;
  /** When the ban ends by itself (ms); null for a permanent ban. See `isBanned`. */
  bannedUntil: number | null;
  /** Tokens issued before this instant (ms) are invalid: logout-all and password reset. */
  tokensValidAfter: number;
  createdAt: number;
  updatedAt: number;
}

export interface NewUser {
  username: string;
  email: string;
  displayName: string;
  passwordHash: string;
  emailVerified: boolean;
  roles: string[];
}

/** A user moved in from another system (`users import`): its hash is kept as it was. */
export interface ImportedUser extends NewUser {
  banned: boolean;
  createdAt: number;
}

export type UserPatch = Partial<
  Pick<
    User,
    | 'username'
    | 'email'
    | 'displayName'
    | 'passwordHash'
    | 'emailVerified'
    | 'roles'
    | 'banned'
    | 'banReason'
    | 'bannedUntil'
    | 'tokensValidAfter'
  >
>;

export interface UserRepo {
  /** Throws `UniqueViolation` naming 'username' or 'email' when taken (ignoring ASCII case). */
  create(
    user: NewUser,
    now: number,
    events?: (created: User) => readonly OutboxEvent[],
  ): Promise<User>;
  findById(id: number): Promise<User | undefined>;
  findByUsername(username: string): Promise<User | undefined>;
  findByEmail(email: string): Promise<User | undefined>;
  /** Username or e-mail, ignoring ASCII case (the login form takes either). */
  findByLogin(login: string): Promise<User | undefined>;
  /**
   * Throws `UniqueViolation` when a new username or e-mail is taken (ignoring ASCII case).
   * `events` are queued for delivery in the same transaction as the change.
   */
  update(
    id: number,
    patch: UserPatch,
    now: number,
    events?: readonly OutboxEvent[],
  ): Promise<void>;
  /**
   * Replaces the roles of user `id`, with `events` in the same transaction, unless it holds
   * `kept` and would be the last user left holding it: false then, and nothing changes. The
   * count and the write do not interleave with another such change, so two of them at once
   * never take the role from the last two holders.
   */
  setRolesKeepingOne(
    id: number,
    roles: string[],
    kept: string,
    now: number,
    events: readonly OutboxEvent[],
  ): Promise<boolean>;
  /**
   * Lifts every timed ban whose end is at or before `now`, with the events `eventsOf` gives for
   * each lifted user in the same transaction. Only rows this call changed are returned and
   * announced, so of several instances running it at once, one announces each user.
   */
  endExpiredBans(
    now: number,
    eventsOf: (user: User) => readonly OutboxEvent[],
  ): Promise<User[]>;
  /** Users whose username or e-mail contains `query`, by id; `withoutRole` leaves out those holding that role. */
  search(
    query: string,
    offset: number,
    limit: number,
    filter?: { withoutRole?: string },
  ): Promise<{ users: User[]; total: number }>;
  /** Ids of users changed at or after `since`, for cross-instance cache invalidation. */
  changedSince(since: number): Promise<number[]>;
  count(): Promise<number>;
  /** Accounts created per UTC day (`YYYY-MM-DD`) since `since`, for the dashboard. */
  createdPerDay(since: number): Promise<Array<{ day: string; count: number }>>;
  /** Up to `limit` users with ids above `afterId`, in id order (export, page by page). */
  listAfter(afterId: number, limit: number): Promise<User[]>;
  /**
   * Which of these user-name and e-mail keys (lower-cased) are taken: each taken user name
   * with the e-mail key of its account, and the taken e-mail keys.
   */
  takenKeys(
    usernameKeys: string[],
    emailKeys: string[],
  ): Promise<{ usernames: Map<string, string>; emails: Set<string> }>;
  /** Inserts every user or none (one transaction); throws `UniqueViolation` when one is taken. */
  insertMany(users: ImportedUser[], now: number): Promise<void>;
}

/** `change_email` codes go to the new address and are accepted only by the change-e-mail endpoint. */
export type EmailPurpose =
  | 'register'
  | 'login'
  | 'verify'
  | 'reset_password'
  | 'change_email'
  | 'reauth';

export interface EmailCode {
  id: number;
  email: string;
  purpose: EmailPurpose;
  codeHash: string;
  attempts: number;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
}

export interface EmailCodeRepo {
  create(code: Omit<EmailCode, 'id' | 'attempts' | 'usedAt'>): Promise<void>;
  /** The newest unused, unexpired code for this e-mail (ASCII case ignored) and purpose. */
  findLatest(
    email: string,
    purpose: EmailPurpose,
    now: number,
  ): Promise<EmailCode | undefined>;
  /** Time of the newest code sent to this e-mail, any purpose (resend throttle). */
  lastSentAt(email: string): Promise<number | undefined>;
  /**
   * Counts one try at the newest live code for (email, purpose), in one conditional UPDATE
   * that only succeeds while fewer than `maxTries` were counted: N parallel tries never get
   * more than `maxTries` hashes to compare. Undefined: no live code, or out of tries.
   */
  takeTry(
    email: string,
    purpose: EmailPurpose,
    now: number,
    maxTries: number,
  ): Promise<{ id: number; codeHash: string } | undefined>;
  /** Counts a wrong try; returns the attempts now recorded. */
  addAttempt(id: number): Promise<number>;
  /** Conditional: marks used only if unused; true for the one caller that did. */
  markUsed(id: number, now: number): Promise<boolean>;
  purgeExpired(before: number): Promise<number>;
}
