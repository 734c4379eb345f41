import type { Kysely, Selectable } from 'kysely';
import type { AccountsTables } from '../accounts/index.js';
import type { MinecraftTables, MinecraftProfilesTable } from './tables.js';

/** The profiles, and the user row locked while a user's profiles are counted. */
type ProfileTables = MinecraftTables & Pick<AccountsTables, 'users'>;
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { narrow } from '../../platform/sql/narrow.js';
import { asciiLower } from '../accounts/index.js';
import type {
  MinecraftProfile,
  MinecraftProfileRepo,
  SkinModel,
  TextureChange,
  TextureKind,
} from './repository.js';

function toProfile(r: Selectable<MinecraftProfilesTable>): MinecraftProfile {
  return {
    id: r.id,
    userId: Number(r.user_id),
    name: r.name,
    skinHash: r.skin_hash,
    skinModel: r.skin_model === 'slim' ? 'slim' : 'default',
    capeHash: r.cape_hash,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class SqlMinecraftProfileRepo implements MinecraftProfileRepo {
  constructor(
    private readonly db: Kysely<ProfileTables>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async create(p: MinecraftProfile, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // The count and the insert must not interleave with another creation for the same user:
      // PostgreSQL locks the user's row; SQLite runs one write transaction at a time anyway.
      if (this.kind === 'postgres')
        await trx
          .selectFrom('users')
          .select('id')
          .where('id', '=', p.userId)
          .forUpdate()
          .execute();
      const { n } = await trx
        .selectFrom('minecraft_profiles')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', p.userId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= max) return false;
      await trx
        .insertInto('minecraft_profiles')
        .values({
          id: p.id,
          user_id: p.userId,
          name: p.name,
          name_key: asciiLower(p.name),
          skin_hash: p.skinHash,
          skin_model: p.skinModel,
          cape_hash: p.capeHash,
          created_at: p.createdAt,
          updated_at: p.updatedAt,
        })
        .execute()
        .catch(mapUnique);
      return true;
    });
  }

  async find(id: string): Promise<MinecraftProfile | undefined> {
    const r = await this.db
      .selectFrom('minecraft_profiles')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return r && toProfile(r);
  }

  async findByName(name: string): Promise<MinecraftProfile | undefined> {
    const r = await this.db
      .selectFrom('minecraft_profiles')
      .selectAll()
      .where('name_key', '=', asciiLower(name))
      .executeTakeFirst();
    return r && toProfile(r);
  }

  async findByNames(names: string[]): Promise<MinecraftProfile[]> {
    if (names.length === 0) return [];
    const rows = await this.db
      .selectFrom('minecraft_profiles')
      .selectAll()
      .where('name_key', 'in', names.map(asciiLower))
      .execute();
    return rows.map(toProfile);
  }

  async listByUser(userId: number): Promise<MinecraftProfile[]> {
    const rows = await this.db
      .selectFrom('minecraft_profiles')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toProfile);
  }

  async rename(id: string, name: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('minecraft_profiles')
      .set({ name, name_key: asciiLower(name), updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst()
      .catch(mapUnique);
    return Number(res.numUpdatedRows) > 0;
  }

  async setTexture(
    id: string,
    kind: TextureKind,
    hash: string | null,
    model: SkinModel | undefined,
    now: number,
  ): Promise<TextureChange | undefined> {
    return this.db
      .transaction()
      .execute((trx) =>
        pointProfileAt(narrow(trx), this.kind, id, kind, hash, model, now),
      );
  }

  async setSkinModel(
    id: string,
    model: SkinModel,
    now: number,
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('minecraft_profiles')
      .set({ skin_model: model, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async remove(id: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('minecraft_profiles')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async removeAllOf(userId: number): Promise<void> {
    await this.db
      .deleteFrom('minecraft_profiles')
      .where('user_id', '=', userId)
      .execute();
  }
}

/**
 * Within a transaction: points the profile's skin or cape at `hash` and answers the hash it
 * replaced (undefined when the profile is gone). PostgreSQL locks the profile's row first, so
 * of two changes at once each sees the other's result as the one it replaces; SQLite runs one
 * write transaction at a time anyway.
 */
export async function pointProfileAt(
  trx: Kysely<MinecraftTables>,
  kind: 'sqlite' | 'postgres',
  id: string,
  texture: TextureKind,
  hash: string | null,
  model: SkinModel | undefined,
  now: number,
): Promise<TextureChange | undefined> {
  let read = trx
    .selectFrom('minecraft_profiles')
    .select(['skin_hash', 'cape_hash'])
    .where('id', '=', id);
  if (kind === 'postgres') read = read.forUpdate();
  const before = await read.executeTakeFirst();
  if (!before) return undefined;
  const change =
    texture === 'skin'
      ? {
          skin_hash: hash,
          ...(model && { skin_model: model }),
          updated_at: now,
        }
      : { cape_hash: hash, updated_at: now };
  await trx
    .updateTable('minecraft_profiles')
    .set(change)
    .where('id', '=', id)
    .execute();
  return { previous: texture === 'skin' ? before.skin_hash : before.cape_hash };
}
