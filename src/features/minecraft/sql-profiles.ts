import type { Kysely, Selectable } from 'kysely';
import type { Database, MinecraftProfilesTable } from '../../platform/sql/schema.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { asciiLower } from '../accounts/index.js';
import type { MinecraftProfile, MinecraftProfileRepo, SkinModel, TextureKind, TextureRepo } from './repository.js';

function toProfile(r: Selectable<MinecraftProfilesTable>): MinecraftProfile {
  return {
    id: r.id, userId: Number(r.user_id), name: r.name, skinHash: r.skin_hash, skinModel: r.skin_model === 'slim' ? 'slim' : 'default',
    capeHash: r.cape_hash, createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
  };
}

export class SqlMinecraftProfileRepo implements MinecraftProfileRepo {
  constructor(private readonly db: Kysely<Database>, private readonly kind: 'sqlite' | 'postgres') {}

  async create(p: MinecraftProfile, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // The count and the insert must not interleave with another creation for the same user:
      // PostgreSQL locks the user's row; SQLite runs one write transaction at a time anyway.
      if (this.kind === 'postgres') await trx.selectFrom('users').select('id').where('id', '=', p.userId).forUpdate().execute();
      const { n } = await trx.selectFrom('minecraft_profiles').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', p.userId).executeTakeFirstOrThrow();
      if (Number(n) >= max) return false;
      await trx.insertInto('minecraft_profiles').values({
        id: p.id, user_id: p.userId, name: p.name, name_key: asciiLower(p.name), skin_hash: p.skinHash, skin_model: p.skinModel,
        cape_hash: p.capeHash, created_at: p.createdAt, updated_at: p.updatedAt,
      }).execute().catch(mapUnique);
      return true;
    });
  }

  async find(id: string): Promise<MinecraftProfile | undefined> {
    const r = await this.db.selectFrom('minecraft_profiles').selectAll().where('id', '=', id).executeTakeFirst();
    return r && toProfile(r);
  }

  async findByName(name: string): Promise<MinecraftProfile | undefined> {
    const r = await this.db.selectFrom('minecraft_profiles').selectAll().where('name_key', '=', asciiLower(name)).executeTakeFirst();
    return r && toProfile(r);
  }

  async findByNames(names: string[]): Promise<MinecraftProfile[]> {
    if (names.length === 0) return [];
    const rows = await this.db.selectFrom('minecraft_profiles').selectAll().where('name_key', 'in', names.map(asciiLower)).execute();
    return rows.map(toProfile);
  }

  async listByUser(userId: number): Promise<MinecraftProfile[]> {
    const rows = await this.db.selectFrom('minecraft_profiles').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    return rows.map(toProfile);
  }

  async rename(id: string, name: string, now: number): Promise<boolean> {
    const res = await this.db.updateTable('minecraft_profiles').set({ name, name_key: asciiLower(name), updated_at: now })
      .where('id', '=', id).executeTakeFirst().catch(mapUnique);
    return Number(res.numUpdatedRows) > 0;
  }

  async setTexture(id: string, kind: TextureKind, hash: string | null, model: SkinModel | undefined, now: number): Promise<boolean> {
    const change = kind === 'skin'
      ? { skin_hash: hash, ...(model && { skin_model: model }), updated_at: now }
      : { cape_hash: hash, updated_at: now };
    const res = await this.db.updateTable('minecraft_profiles').set(change).where('id', '=', id).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  async remove(id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('minecraft_profiles').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async removeAllOf(userId: number): Promise<void> {
    await this.db.deleteFrom('minecraft_profiles').where('user_id', '=', userId).execute();
  }
}

export class SqlTextureRepo implements TextureRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async put(hash: string, png: Buffer, now: number): Promise<void> {
    await this.db.insertInto('minecraft_textures').values({ hash, png: png.toString('base64'), created_at: now })
      .onConflict((oc) => oc.column('hash').doNothing()).execute();
  }

  async get(hash: string): Promise<Buffer | undefined> {
    const r = await this.db.selectFrom('minecraft_textures').select('png').where('hash', '=', hash).executeTakeFirst();
    return r && Buffer.from(r.png, 'base64');
  }
}
