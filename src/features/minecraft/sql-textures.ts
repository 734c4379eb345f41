import { sql, type Kysely, type Transaction } from 'kysely';
import type { MinecraftTables } from './tables.js';
import { pointProfileAt } from './sql-profiles.js';
import type {
  SkinModel,
  TextureChange,
  TextureKind,
  TextureRepo,
} from './repository.js';

/**
 * Skin and cape files, stored once per picture and kept only while a profile uses them.
 * Every write of a texture row and every deletion of one locks that row (PostgreSQL; SQLite
 * runs one write transaction at a time), so a picture being attached to one profile is never
 * deleted because another profile just let go of it.
 */
export class SqlTextureRepo implements TextureRepo {
  constructor(
    private readonly db: Kysely<MinecraftTables>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async put(hash: string, png: Buffer, now: number): Promise<void> {
    await store(this.db, hash, png, now);
  }

  async attach(
    profileId: string,
    kind: TextureKind,
    hash: string,
    png: Buffer,
    model: SkinModel | undefined,
    now: number,
  ): Promise<TextureChange | undefined> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        await store(trx, hash, png, now);
        const change = await pointProfileAt(
          trx,
          this.kind,
          profileId,
          kind,
          hash,
          model,
          now,
        );
        // No profile: roll the stored file back with everything else.
        if (!change) throw new ProfileGone();
        return change;
      })
      .catch((err: unknown) => {
        if (err instanceof ProfileGone) return undefined;
        throw err;
      });
  }

  async get(hash: string): Promise<Buffer | undefined> {
    const r = await this.db
      .selectFrom('minecraft_textures')
      .select('png')
      .where('hash', '=', hash)
      .executeTakeFirst();
    return r && Buffer.from(r.png, 'base64');
  }

  async removeIfUnused(hash: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // The row lock waits for an attach of this picture that is under way; the check after
      // it is a statement of its own, so it sees that attach's profile once it committed.
      if (this.kind === 'postgres')
        await trx
          .selectFrom('minecraft_textures')
          .select('hash')
          .where('hash', '=', hash)
          .forUpdate()
          .execute();
      const user = await trx
        .selectFrom('minecraft_profiles')
        .select('id')
        .where((eb) =>
          eb.or([eb('skin_hash', '=', hash), eb('cape_hash', '=', hash)]),
        )
        .limit(1)
        .executeTakeFirst();
      if (user) return false;
      const res = await trx
        .deleteFrom('minecraft_textures')
        .where('hash', '=', hash)
        .executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    });
  }

  async purgeUnused(before: number): Promise<number> {
    // `created_at` is renewed by every attach, so a row an attach is holding no longer
    // qualifies when PostgreSQL re-checks it after the attach's lock.
    const res = await this.db
      .deleteFrom('minecraft_textures')
      .where('created_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('minecraft_profiles')
              .select('id')
              .where(sql<boolean>`skin_hash = minecraft_textures.hash`),
          ),
        ),
      )
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('minecraft_profiles')
              .select('id')
              .where(sql<boolean>`cape_hash = minecraft_textures.hash`),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

class ProfileGone extends Error {}

/** Inserts the file, or renews the time of the row already there (taking its lock). */
async function store(
  db: Kysely<MinecraftTables> | Transaction<MinecraftTables>,
  hash: string,
  png: Buffer,
  now: number,
): Promise<void> {
  await db
    .insertInto('minecraft_textures')
    .values({ hash, png: png.toString('base64'), created_at: now })
    .onConflict((oc) => oc.column('hash').doUpdateSet({ created_at: now }))
    .execute();
}
