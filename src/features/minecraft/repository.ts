/** What the Minecraft feature (docs/api.md §18) needs from storage. */

export type SkinModel = 'default' | 'slim';
export type TextureKind = 'skin' | 'cape';

export interface MinecraftProfile {
  /** Unsigned UUID: 32 lower-case hex digits. */
  id: string;
  userId: number;
  name: string;
  skinHash: string | null;
  skinModel: SkinModel;
  capeHash: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface MinecraftProfileRepo {
  /** Inserts unless the user already owns `max` profiles; false then. Throws UniqueViolation for a taken name. */
  create(profile: MinecraftProfile, max: number): Promise<boolean>;
  find(id: string): Promise<MinecraftProfile | undefined>;
  /** By name, ignoring case (ASCII). */
  findByName(name: string): Promise<MinecraftProfile | undefined>;
  findByNames(names: string[]): Promise<MinecraftProfile[]>;
  listByUser(userId: number): Promise<MinecraftProfile[]>;
  /** Throws UniqueViolation for a taken name; false when the profile is gone. */
  rename(id: string, name: string, now: number): Promise<boolean>;
  /** Points the profile's skin or cape at `hash` (null: none); answers the hash it replaced, or undefined when the profile is gone. */
  setTexture(
    id: string,
    kind: TextureKind,
    hash: string | null,
    model: SkinModel | undefined,
    now: number,
  ): Promise<TextureChange | undefined>;
  setSkinModel(id: string, model: SkinModel, now: number): Promise<boolean>;
  remove(id: string): Promise<boolean>;
  removeAllOf(userId: number): Promise<void>;
}

/** What a texture change replaced, for the clean-up of files nothing uses any more. */
export interface TextureChange {
  previous: string | null;
}

export interface TextureRepo {
  /** Stores a PNG under its hash; storing the same picture twice is one row, whose time is renewed. */
  put(hash: string, png: Buffer, now: number): Promise<void>;
  /**
   * Stores the PNG and points the profile at it in one transaction, so the file is never
   * seen without the profile that uses it; undefined (and nothing stored) when the profile is gone.
   */
  attach(
    profileId: string,
    kind: TextureKind,
    hash: string,
    png: Buffer,
    model: SkinModel | undefined,
    now: number,
  ): Promise<TextureChange | undefined>;
  get(hash: string): Promise<Buffer | undefined>;
  /** Deletes the texture unless a profile uses it; true when it went. */
  removeIfUnused(hash: string): Promise<boolean>;
  /** Deletes textures stored before `before` that no profile uses; answers how many went. */
  purgeUnused(before: number): Promise<number>;
}

export interface YggdrasilToken {
  tokenHash: string;
  clientToken: string;
  userId: number;
  profileId: string | null;
  passwordMark: string;
  issuedAt: number;
  expiresAt: number;
}

export interface YggdrasilTokenRepo {
  insert(token: YggdrasilToken): Promise<void>;
  find(tokenHash: string): Promise<YggdrasilToken | undefined>;
  /** Deletes the token and answers it, or undefined when another request took it first (refresh, invalidate). */
  take(tokenHash: string): Promise<YggdrasilToken | undefined>;
  removeAllOf(userId: number): Promise<void>;
  /** Tokens holding a deleted profile die with it. */
  removeOfProfile(profileId: string): Promise<void>;
  purgeExpired(now: number): Promise<void>;
}

export interface ServerJoin {
  serverId: string;
  profileId: string;
  userId: number;
  ip: string;
  expiresAt: number;
}

export interface ServerJoinRepo {
  /** Records the join; a second join of the same profile to the same server id replaces the first. */
  put(join: ServerJoin): Promise<void>;
  find(serverId: string, profileId: string): Promise<ServerJoin | undefined>;
  purgeExpired(now: number): Promise<void>;
}

export interface StoredSigningKey {
  publicPem: string;
  /** The private JWK, sealed with AES-256-GCM (platform/crypto/secret-box.ts). */
  privateJwkEnc: string;
  createdAt: number;
}

export interface MinecraftKeyRepo {
  /** Stores the key unless one exists; answers the stored one either way. */
  insertOrGet(key: StoredSigningKey): Promise<StoredSigningKey>;
  get(): Promise<StoredSigningKey | undefined>;
}

/** The Minecraft feature's repositories. */
export interface MinecraftRepos {
  readonly profiles: MinecraftProfileRepo;
  readonly textures: TextureRepo;
  readonly tokens: YggdrasilTokenRepo;
  readonly joins: ServerJoinRepo;
  readonly key: MinecraftKeyRepo;
}
