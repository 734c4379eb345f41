import type { Kysely, Selectable } from 'kysely';
import type {
  Database,
  MinecraftTokensTable,
} from '../../platform/sql/schema.js';
import type {
  MinecraftKeyRepo,
  ServerJoin,
  ServerJoinRepo,
  StoredSigningKey,
  YggdrasilToken,
  YggdrasilTokenRepo,
} from './repository.js';

function toToken(r: Selectable<MinecraftTokensTable>): YggdrasilToken {
  return {
    tokenHash: r.token_hash,
    clientToken: r.client_token,
    userId: Number(r.user_id),
    profileId: r.profile_id,
    passwordMark: r.password_mark,
    issuedAt: Number(r.issued_at),
    expiresAt: Number(r.expires_at),
  };
}

export class SqlYggdrasilTokenRepo implements YggdrasilTokenRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(t: YggdrasilToken): Promise<void> {
    await this.db
      .insertInto('minecraft_tokens')
      .values({
        token_hash: t.tokenHash,
        client_token: t.clientToken,
        user_id: t.userId,
        profile_id: t.profileId,
        password_mark: t.passwordMark,
        issued_at: t.issuedAt,
        expires_at: t.expiresAt,
      })
      .execute();
  }

  async find(tokenHash: string): Promise<YggdrasilToken | undefined> {
    const r = await this.db
      .selectFrom('minecraft_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return r && toToken(r);
  }

  async take(tokenHash: string): Promise<YggdrasilToken | undefined> {
    // One statement: of two concurrent refreshes of one token exactly one gets the row.
    const r = await this.db
      .deleteFrom('minecraft_tokens')
      .where('token_hash', '=', tokenHash)
      .returningAll()
      .executeTakeFirst();
    return r && toToken(r);
  }

  async removeAllOf(userId: number): Promise<void> {
    await this.db
      .deleteFrom('minecraft_tokens')
      .where('user_id', '=', userId)
      .execute();
  }

  async removeOfProfile(profileId: string): Promise<void> {
    await this.db
      .deleteFrom('minecraft_tokens')
      .where('profile_id', '=', profileId)
      .execute();
  }

  async purgeExpired(now: number): Promise<void> {
    await this.db
      .deleteFrom('minecraft_tokens')
      .where('expires_at', '<=', now)
      .execute();
  }
}

export class SqlServerJoinRepo implements ServerJoinRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async put(j: ServerJoin): Promise<void> {
    const row = {
      server_id: j.serverId,
      profile_id: j.profileId,
      user_id: j.userId,
      ip: j.ip,
      expires_at: j.expiresAt,
    };
    await this.db
      .insertInto('minecraft_joins')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['server_id', 'profile_id']).doUpdateSet({
          user_id: j.userId,
          ip: j.ip,
          expires_at: j.expiresAt,
        }),
      )
      .execute();
  }

  async find(
    serverId: string,
    profileId: string,
  ): Promise<ServerJoin | undefined> {
    const r = await this.db
      .selectFrom('minecraft_joins')
      .selectAll()
      .where('server_id', '=', serverId)
      .where('profile_id', '=', profileId)
      .executeTakeFirst();
    return (
      r && {
        serverId: r.server_id,
        profileId: r.profile_id,
        userId: Number(r.user_id),
        ip: r.ip,
        expiresAt: Number(r.expires_at),
      }
    );
  }

  async purgeExpired(now: number): Promise<void> {
    await this.db
      .deleteFrom('minecraft_joins')
      .where('expires_at', '<=', now)
      .execute();
  }
}

export class SqlMinecraftKeyRepo implements MinecraftKeyRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insertOrGet(key: StoredSigningKey): Promise<StoredSigningKey> {
    // Whichever instance inserts first wins; the others read its key.
    await this.db
      .insertInto('minecraft_signing_key')
      .values({
        id: 1,
        public_pem: key.publicPem,
        private_jwk_enc: key.privateJwkEnc,
        created_at: key.createdAt,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const stored = await this.get();
    if (!stored)
      throw new Error('the Minecraft signing key could not be stored');
    return stored;
  }

  async get(): Promise<StoredSigningKey | undefined> {
    const r = await this.db
      .selectFrom('minecraft_signing_key')
      .selectAll()
      .where('id', '=', 1)
      .executeTakeFirst();
    return (
      r && {
        publicPem: r.public_pem,
        privateJwkEnc: r.private_jwk_enc,
        createdAt: Number(r.created_at),
      }
    );
  }
}
