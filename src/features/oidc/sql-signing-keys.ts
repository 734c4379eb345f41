import type { Kysely, Selectable } from 'kysely';
import type { OidcTables, SigningKeysTable } from './tables.js';
import type { SigningKey, SigningKeyRepo } from './repository.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { num } from '../../platform/sql/columns.js';

function toKey(r: Selectable<SigningKeysTable>): SigningKey {
  return {
    kid: r.kid,
    generation: Number(r.generation),
    alg: r.alg,
    publicJwk: r.public_jwk,
    privateJwkEnc: r.private_jwk_enc,
    createdAt: Number(r.created_at),
    retiredAt: num(r.retired_at),
  };
}

export class SqlSigningKeyRepo implements SigningKeyRepo {
  constructor(private readonly db: Kysely<OidcTables>) {}

  async insert(k: Omit<SigningKey, 'retiredAt'>): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('signing_keys')
          .values({
            kid: k.kid,
            generation: k.generation,
            alg: k.alg,
            public_jwk: k.publicJwk,
            private_jwk_enc: k.privateJwkEnc,
            created_at: k.createdAt,
            retired_at: null,
          })
          .execute();
        await tx
          .updateTable('signing_keys')
          .set({ retired_at: k.createdAt })
          .where('generation', '<', k.generation)
          .where('retired_at', 'is', null)
          .execute();
      });
      return true;
    } catch (err) {
      try {
        mapUnique(err);
      } catch (mapped) {
        if (mapped instanceof UniqueViolation) return false;
        throw mapped;
      }
    }
  }

  async list(limit: number): Promise<SigningKey[]> {
    const rows = await this.db
      .selectFrom('signing_keys')
      .selectAll()
      .orderBy('generation', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toKey);
  }

  async current(): Promise<SigningKey | undefined> {
    return (await this.list(1))[0];
  }
}
