import { fail } from '../../errors/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import type { User } from '../accounts/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { RateLimiter } from '../limits/index.js';
import type { ProfileDetail, ProfileSummary } from './contract.js';
import { textureUrl } from './profile-views.js';
import { encodePng } from '../../platform/images/png.js';
import {
  isReservedProfileName,
  isValidProfileName,
  newProfileId,
  profileIdOf,
  textureImage,
} from './profile-rules.js';
import { textureHash } from './texture-hash.js';
import type { MinecraftProfile, SkinModel, TextureKind } from './repository.js';
import type { Config } from '../../config/index.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { MinecraftRepos } from './repository.js';

export interface ProfileDeps {
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly storage: {
    readonly minecraft: MinecraftRepos;
    readonly users: UserRepo;
  };
  readonly config: Pick<
    Config,
    'minecraftMaxProfiles' | 'baseUrl' | 'siteName'
  >;
}

/** Who acts on a profile: its owner, or an administrator (who may act on any). */
export interface ProfileActor {
  user: User;
  admin: boolean;
  caller: Caller;
}

function nameTaken(err: unknown): never {
  if (err instanceof UniqueViolation) throw fail('minecraftNameTaken');
  throw err;
}

/** Minecraft profiles (角色) and their skins and capes (docs/api.md §18.2). */
export class ProfileService {
  constructor(
    private readonly ctx: ProfileDeps,
    private readonly limiter: Pick<RateLimiter, 'takeOrRefuse'>,
  ) {}

  private get repos() {
    return this.ctx.storage.minecraft;
  }

  async list(user: User): Promise<ProfileSummary[]> {
    return (await this.repos.profiles.listByUser(user.id)).map((p) => ({
      id: p.id,
      name: p.name,
    }));
  }

  async listDetailed(userId: number): Promise<ProfileDetail[]> {
    return (await this.repos.profiles.listByUser(userId)).map((p) =>
      this.detail(p),
    );
  }

  async get(actor: ProfileActor, rawId: string): Promise<ProfileDetail> {
    return this.detail(await this.owned(actor, rawId));
  }

  async create(
    user: User,
    name: string,
    caller: Caller,
  ): Promise<ProfileSummary> {
    await this.checkName(name, user.id, false);
    const now = this.ctx.now();
    const profile: MinecraftProfile = {
      id: newProfileId(),
      userId: user.id,
      name,
      skinHash: null,
      skinModel: 'default',
      capeHash: null,
      createdAt: now,
      updatedAt: now,
    };
    const created = await this.repos.profiles
      .create(profile, this.ctx.config.minecraftMaxProfiles)
      .catch(nameTaken);
    if (!created) throw fail('minecraftProfileLimit');
    await this.ctx.audit.record('minecraft.profile.create', {
      actor: user.username,
      ip: caller.ip,
      target: profile.id,
      detail: { name },
    });
    return { id: profile.id, name };
  }

  async rename(
    actor: ProfileActor,
    rawId: string,
    name: string,
  ): Promise<ProfileSummary> {
    const profile = await this.owned(actor, rawId);
    await this.checkName(name, profile.userId, actor.admin);
    if (
      !(await this.repos.profiles
        .rename(profile.id, name, this.ctx.now())
        .catch(nameTaken))
    )
      throw fail('unknownMinecraftProfile');
    await this.ctx.audit.record('minecraft.profile.rename', {
      actor: actor.user.username,
      ip: actor.caller.ip,
      target: profile.id,
      detail: { from: profile.name, to: name, by_admin: actor.admin },
    });
    return { id: profile.id, name };
  }

  async remove(actor: ProfileActor, rawId: string): Promise<void> {
    const profile = await this.owned(actor, rawId);
    if (!(await this.repos.profiles.remove(profile.id)))
      throw fail('unknownMinecraftProfile');
    // A launcher holding the profile can no longer join with it.
    await this.repos.tokens.removeOfProfile(profile.id);
    await this.forget(profile.skinHash);
    await this.forget(profile.capeHash);
    await this.ctx.audit.record('minecraft.profile.delete', {
      actor: actor.user.username,
      ip: actor.caller.ip,
      target: profile.id,
      detail: { name: profile.name, by_admin: actor.admin },
    });
  }

  /**
   * Stores a skin or cape and points the profile at it; refused unless a real PNG of a size
   * the game reads. Each upload is counted on the uploader's limit before the file is looked
   * at. Only the picture is kept (re-encoded, nothing else of the file), named by its
   * authlib-injector texture hash; the file it replaces goes unless another profile uses it.
   */
  async upload(
    actor: ProfileActor,
    rawId: string,
    kind: TextureKind,
    file: Buffer,
    model: SkinModel | undefined,
  ): Promise<ProfileDetail> {
    await this.limiter.takeOrRefuse('textureUpload', `uid:${actor.user.id}`);
    const profile = await this.owned(actor, rawId);
    const image = textureImage(kind, file);
    if (!image) throw fail('badTexture');
    const hash = textureHash(image);
    const now = this.ctx.now();
    const change = await this.repos.textures.attach(
      profile.id,
      kind,
      hash,
      encodePng(image),
      kind === 'skin' ? (model ?? 'default') : undefined,
      now,
    );
    if (!change) throw fail('unknownMinecraftProfile');
    if (change.previous !== hash) await this.forget(change.previous);
    await this.ctx.audit.record('minecraft.texture.upload', {
      actor: actor.user.username,
      ip: actor.caller.ip,
      target: profile.id,
      detail: { type: kind, hash },
    });
    // The profile as this upload left it, whatever a parallel one did since.
    return this.detail(
      kind === 'skin'
        ? { ...profile, skinHash: hash, skinModel: model ?? 'default' }
        : { ...profile, capeHash: hash },
    );
  }

  async setModel(
    actor: ProfileActor,
    rawId: string,
    model: SkinModel,
  ): Promise<ProfileDetail> {
    const profile = await this.owned(actor, rawId);
    await this.repos.profiles.setSkinModel(profile.id, model, this.ctx.now());
    await this.ctx.audit.record('minecraft.texture.model', {
      actor: actor.user.username,
      ip: actor.caller.ip,
      target: profile.id,
      detail: { model },
    });
    return this.detail(
      (await this.repos.profiles.find(profile.id)) ?? {
        ...profile,
        skinModel: model,
      },
    );
  }

  async removeTexture(
    actor: ProfileActor,
    rawId: string,
    kind: TextureKind,
  ): Promise<ProfileDetail> {
    const profile = await this.owned(actor, rawId);
    const change = await this.repos.profiles.setTexture(
      profile.id,
      kind,
      null,
      undefined,
      this.ctx.now(),
    );
    if (!change) throw fail('unknownMinecraftProfile');
    await this.forget(change.previous);
    await this.ctx.audit.record('minecraft.texture.delete', {
      actor: actor.user.username,
      ip: actor.caller.ip,
      target: profile.id,
      detail: { type: kind },
    });
    return this.detail(
      kind === 'skin'
        ? { ...profile, skinHash: null }
        : { ...profile, capeHash: null },
    );
  }

  /** A stored texture file by its hash, for `{BASE_URL}/textures/{hash}`. */
  async texture(hash: string): Promise<Buffer | undefined> {
    return /^[0-9a-f]{64}$/.test(hash)
      ? this.repos.textures.get(hash)
      : undefined;
  }

  /** Deletes a texture file no profile uses any more; housekeeping catches any this misses. */
  private async forget(hash: string | null): Promise<void> {
    if (hash !== null) await this.repos.textures.removeIfUnused(hash);
  }

  /**
   * A profile name must be well-formed and must not pass for someone else: the staff names
   * (administrators alone may give them) and another account's username are taken, since
   * a launcher sign-in by that name would otherwise reach this profile's owner.
   */
  private async checkName(
    name: string,
    ownerId: number,
    admin: boolean,
  ): Promise<void> {
    if (!isValidProfileName(name)) throw fail('badMinecraftName');
    if (!admin && isReservedProfileName(name, this.ctx.config.siteName))
      throw fail('minecraftNameTaken');
    const holder = await this.ctx.storage.users.findByUsername(name);
    if (holder && holder.id !== ownerId) throw fail('minecraftNameTaken');
  }

  /** The profile if the actor may act on it; unknown and someone else's look the same. */
  private async owned(
    actor: ProfileActor,
    rawId: string,
  ): Promise<MinecraftProfile> {
    const id = profileIdOf(rawId);
    const profile =
      id === undefined ? undefined : await this.repos.profiles.find(id);
    if (!profile || (!actor.admin && profile.userId !== actor.user.id))
      throw fail('unknownMinecraftProfile');
    return profile;
  }

  private detail(p: MinecraftProfile): ProfileDetail {
    const { baseUrl } = this.ctx.config;
    return {
      id: p.id,
      name: p.name,
      skin: p.skinHash
        ? { url: textureUrl(baseUrl, p.skinHash), model: p.skinModel }
        : null,
      cape: p.capeHash ? { url: textureUrl(baseUrl, p.capeHash) } : null,
    };
  }
}
