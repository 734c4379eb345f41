import { randomBytes, randomUUID } from 'node:crypto';
import { safeEqual, sha256Hex } from '../../platform/crypto/random.js';
import { asciiLower, isBanned, type User } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { AuthenticateBody, RefreshBody } from './contract.js';
import { profileIdOf } from './profile-rules.js';
import type { ProfileViews, YggdrasilProfile } from './profile-views.js';
import type { MinecraftProfile, YggdrasilToken } from './repository.js';
import {
  illegalArgument,
  invalidToken,
  forbidden,
} from './yggdrasil-errors.js';
import type { YggdrasilSignIn } from './yggdrasil-sign-in.js';
import type { UserCache } from '../sessions/index.js';
import type { MinecraftRepos } from './repository.js';

export interface YggdrasilDeps {
  readonly now: () => number;
  readonly userCache: UserCache;
  readonly storage: {
    readonly minecraft: MinecraftRepos;
  };
}

/** Access tokens live 15 days (docs/api.md §18.3). */
export const ACCESS_TOKEN_TTL_MS = 15 * 24 * 3600 * 1000;
/** How long a `join` is remembered for the game server's `hasJoined`. */
export const JOIN_TTL_MS = 30_000;
/** Names per profiles query: the specification asks for a cap. */
export const MAX_NAMES_PER_QUERY = 10;

interface UserView {
  id: string;
  properties: Array<{ name: string; value: string }>;
}

export interface SignInReply {
  accessToken: string;
  clientToken: string;
  availableProfiles?: YggdrasilProfile[];
  selectedProfile?: YggdrasilProfile;
  user?: UserView;
}

/** A digest of the password hash: a token issued before a password change or reset no longer matches. */
const passwordMarkOf = (user: User): string =>
  sha256Hex(`minecraft-token-mark:${user.passwordHash}`).slice(0, 32);

/** The authserver and sessionserver of the Yggdrasil API (docs/api.md §18.3). */
export class YggdrasilService {
  constructor(
    private readonly ctx: YggdrasilDeps,
    private readonly signIn: YggdrasilSignIn,
    private readonly views: ProfileViews,
  ) {}

  private get repos() {
    return this.ctx.storage.minecraft;
  }

  async authenticate(
    body: AuthenticateBody,
    caller: Caller,
  ): Promise<SignInReply> {
    const user = await this.signIn.check(
      body.username,
      body.password,
      caller,
      'authenticate',
    );
    const profiles = await this.repos.profiles.listByUser(user.id);
    // With one profile the launcher needs no choice; with several it refreshes with the one picked.
    const selected = profiles.length === 1 ? profiles[0] : undefined;
    const clientToken = body.clientToken || randomUUID().replaceAll('-', '');
    const accessToken = await this.issue(
      user,
      clientToken,
      selected?.id ?? null,
    );
    return {
      accessToken,
      clientToken,
      availableProfiles: profiles.map((p) => this.views.brief(p)),
      ...(selected && { selectedProfile: this.views.brief(selected) }),
      ...(body.requestUser && { user: userView(user) }),
    };
  }

  async refresh(body: RefreshBody): Promise<SignInReply> {
    const held = await this.live(body.accessToken, body.clientToken);
    if (!held) throw invalidToken();
    let profileId = held.token.profileId;
    if (body.selectedProfile) {
      if (profileId !== null)
        throw illegalArgument('Access token already has a profile assigned.');
      const wanted = profileIdOf(body.selectedProfile.id);
      const profile =
        wanted === undefined
          ? undefined
          : await this.repos.profiles.find(wanted);
      if (!profile || profile.userId !== held.user.id)
        throw forbidden('Invalid profile.');
      profileId = profile.id;
    }
    // The old token is taken in one statement: of two refreshes of it, one wins.
    if (!(await this.repos.tokens.take(held.token.tokenHash)))
      throw invalidToken();
    const accessToken = await this.issue(
      held.user,
      held.token.clientToken,
      profileId,
    );
    const profile =
      profileId === null
        ? undefined
        : await this.repos.profiles.find(profileId);
    return {
      accessToken,
      clientToken: held.token.clientToken,
      ...(profile && { selectedProfile: this.views.brief(profile) }),
      ...(body.requestUser && { user: userView(held.user) }),
    };
  }

  async validate(
    accessToken: string,
    clientToken: string | undefined,
  ): Promise<void> {
    if (!(await this.live(accessToken, clientToken))) throw invalidToken();
  }

  async invalidate(accessToken: string): Promise<void> {
    await this.repos.tokens.take(sha256Hex(accessToken));
  }

  async signout(
    login: string,
    password: string,
    caller: Caller,
  ): Promise<void> {
    const user = await this.signIn.check(login, password, caller, 'signout');
    await this.repos.tokens.removeAllOf(user.id);
  }

  async join(
    accessToken: string,
    selectedProfile: string,
    serverId: string,
    caller: Caller,
  ): Promise<void> {
    const held = await this.live(accessToken, undefined);
    const profileId = profileIdOf(selectedProfile);
    if (!held || profileId === undefined || held.token.profileId !== profileId)
      throw invalidToken();
    await this.repos.joins.put({
      serverId,
      profileId,
      userId: held.user.id,
      ip: caller.ip,
      expiresAt: this.ctx.now() + JOIN_TTL_MS,
    });
  }

  /**
   * The joined player's profile with signed properties, or undefined (204) for anything else,
   * a banned player included. A join is looked up by the server id and the named profile
   * together: players joining under one server id never see each other's joins.
   */
  async hasJoined(
    username: string,
    serverId: string,
    ip: string | undefined,
  ): Promise<YggdrasilProfile | undefined> {
    const profile = await this.repos.profiles.findByName(username);
    if (!profile) return undefined;
    const join = await this.repos.joins.find(serverId, profile.id);
    if (
      !join ||
      join.expiresAt <= this.ctx.now() ||
      (ip !== undefined && ip !== join.ip) ||
      profile.userId !== join.userId
    )
      return undefined;
    // The user cache sees a ban from any instance within the 5 s of docs/api.md §18.3.
    const user = await this.ctx.userCache.findById(join.userId);
    if (!user || isBanned(user, this.ctx.now())) return undefined;
    return this.views.full(profile, true);
  }

  async profile(
    rawId: string,
    unsigned: string | undefined,
  ): Promise<YggdrasilProfile | undefined> {
    const id = profileIdOf(rawId);
    const profile =
      id === undefined ? undefined : await this.repos.profiles.find(id);
    return profile && this.views.full(profile, unsigned === 'false');
  }

  async profilesNamed(names: string[]): Promise<YggdrasilProfile[]> {
    const wanted = [...new Set(names.map(asciiLower))];
    if (wanted.length > MAX_NAMES_PER_QUERY)
      throw forbidden(`At most ${MAX_NAMES_PER_QUERY} names per query.`);
    const found: MinecraftProfile[] =
      await this.repos.profiles.findByNames(wanted);
    return found.map((p) => this.views.brief(p));
  }

  /** The account behind a live access token (the texture endpoints' `Authorization: Bearer`), or undefined. */
  async holderOf(accessToken: string): Promise<User | undefined> {
    return (await this.live(accessToken, undefined))?.user;
  }

  private async issue(
    user: User,
    clientToken: string,
    profileId: string | null,
  ): Promise<string> {
    // 128 random bits in hex: launchers treat the token as an opaque string, some expect UUID-like text.
    const accessToken = randomBytes(16).toString('hex');
    // Issued after the user's cut-off even within its very millisecond (as the center's own tokens are).
    const issuedAt = Math.max(this.ctx.now(), user.tokensValidAfter + 1);
    const token: YggdrasilToken = {
      tokenHash: sha256Hex(accessToken),
      clientToken,
      userId: user.id,
      profileId,
      passwordMark: passwordMarkOf(user),
      issuedAt,
      expiresAt: issuedAt + ACCESS_TOKEN_TTL_MS,
    };
    await this.repos.tokens.insert(token);
    return accessToken;
  }

  /**
   * The token and its user when the token may be used: stored, unexpired, for this client
   * (when one is named), and its user still there, not banned, not signed out everywhere
   * since, with the same password as when it was issued.
   */
  private async live(
    accessToken: string,
    clientToken: string | undefined,
  ): Promise<{ token: YggdrasilToken; user: User } | undefined> {
    const token = await this.repos.tokens.find(sha256Hex(accessToken));
    if (!token || token.expiresAt <= this.ctx.now()) return undefined;
    if (
      clientToken !== undefined &&
      !safeEqual(sha256Hex(clientToken), sha256Hex(token.clientToken))
    )
      return undefined;
    const user = await this.ctx.userCache.findById(token.userId);
    if (
      !user ||
      isBanned(user, this.ctx.now()) ||
      token.issuedAt <= user.tokensValidAfter ||
      passwordMarkOf(user) !== token.passwordMark
    )
      return undefined;
    return { token, user };
  }
}

/** The account as the protocol's `user`: a stable unsigned UUID derived from the id, and no personal data. */
function userView(user: User): UserView {
  return {
    id: sha256Hex(`minecraft-user:${user.id}`).slice(0, 32),
    properties: [],
  };
}
