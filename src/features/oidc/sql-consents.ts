import type { Kysely, Selectable } from 'kysely';
import type { ConsentsTable, OidcTables } from './tables.js';
import type { Consent, ConsentRepo } from './repository.js';

function toConsent(r: Selectable<ConsentsTable>): Consent {
  return {
    userId: Number(r.user_id),
    clientId: r.client_id,
    scopes: JSON.parse(r.scopes) as string[],
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export class SqlConsentRepo implements ConsentRepo {
  constructor(private readonly db: Kysely<OidcTables>) {}

  async upsert(
    userId: number,
    clientId: string,
    scopes: string[],
    now: number,
  ): Promise<Consent> {
    const row = await this.db
      .insertInto('consents')
      .values({
        user_id: userId,
        client_id: clientId,
        scopes: JSON.stringify(scopes),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'client_id'])
          .doUpdateSet({ scopes: JSON.stringify(scopes), updated_at: now }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toConsent(row);
  }

  async find(userId: number, clientId: string): Promise<Consent | undefined> {
    const r = await this.db
      .selectFrom('consents')
      .selectAll()
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return r && toConsent(r);
  }

  async listByUser(userId: number): Promise<Consent[]> {
    const rows = await this.db
      .selectFrom('consents')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('updated_at', 'desc')
      .orderBy('client_id')
      .execute();
    return rows.map(toConsent);
  }

  async delete(userId: number, clientId: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('consents')
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }
}
