import type { Kysely, Selectable } from 'kysely';
import type { PasskeysTable, SecondFactorTables } from './tables.js';
import type { ChallengePurpose, Passkey, PasskeyRepo } from './repository.js';
import { changed } from './changed-rows.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';

function toPasskey(r: Selectable<PasskeysTable>): Passkey {
  return {
    credentialId: r.credential_id,
    userId: Number(r.user_id),
    publicKey: r.public_key,
    counter: Number(r.counter),
    transports: JSON.parse(r.transports) as string[],
    name: r.name,
    createdAt: Number(r.created_at),
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  };
}

export class SqlPasskeyRepo implements PasskeyRepo {
  constructor(private readonly db: Kysely<SecondFactorTables>) {}

  async create(
    p: Omit<Passkey, 'lastUsedAt'> & { lastUsedAt?: number | null },
  ): Promise<void> {
    await this.db
      .insertInto('passkeys')
      .values({
        credential_id: p.credentialId,
        user_id: p.userId,
        public_key: p.publicKey,
        counter: p.counter,
        transports: JSON.stringify(p.transports),
        name: p.name,
        created_at: p.createdAt,
        last_used_at: p.lastUsedAt ?? null,
      })
      .execute()
      .catch(mapUnique);
  }

  async find(credentialId: string): Promise<Passkey | undefined> {
    const r = await this.db
      .selectFrom('passkeys')
      .selectAll()
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
    return r && toPasskey(r);
  }

  async listByUser(userId: number): Promise<Passkey[]> {
    const rows = await this.db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return rows.map(toPasskey);
  }

  async recordUse(
    credentialId: string,
    counter: number,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('passkeys')
      .set({ counter, last_used_at: now })
      .where('credential_id', '=', credentialId)
      .execute();
  }

  async remove(userId: number, credentialId: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('passkeys')
      .where('user_id', '=', userId)
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
    return changed(res) === 1;
  }

  async removeAll(userId: number): Promise<number> {
    return changed(
      await this.db
        .deleteFrom('passkeys')
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    );
  }

  async saveChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    userId: number | null,
    expiresAt: number,
  ): Promise<void> {
    await this.db
      .insertInto('webauthn_challenges')
      .values({
        challenge,
        purpose,
        user_id: userId,
        expires_at: expiresAt,
        used_at: null,
      })
      .execute();
  }

  async takeChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    now: number,
  ): Promise<{ userId: number | null } | undefined> {
    const r = await this.db
      .updateTable('webauthn_challenges')
      .set({ used_at: now })
      .where('challenge', '=', challenge)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return r && { userId: r.user_id === null ? null : Number(r.user_id) };
  }

  async purgeChallenges(before: number): Promise<number> {
    return changed(
      await this.db
        .deleteFrom('webauthn_challenges')
        .where('expires_at', '<', before)
        .executeTakeFirst(),
    );
  }
}
