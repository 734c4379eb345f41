import type { Kysely, Selectable } from 'kysely';
import type { Database, PasskeysTable } from '../../platform/sql/schema.js';
import type {
  ChallengePurpose,
  Passkey,
  PasskeyRepo,
  SecondFactorRepo,
  TotpFactor,
} from './repository.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';

const changed = (res: {
  numUpdatedRows?: bigint;
  numDeletedRows?: bigint;
  numInsertedOrUpdatedRows?: bigint;
}) =>
  Number(
    res.numUpdatedRows ??
      res.numDeletedRows ??
      res.numInsertedOrUpdatedRows ??
      0,
  );

export class SqlSecondFactorRepo implements SecondFactorRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async findTotp(userId: number): Promise<TotpFactor | undefined> {
    const r = await this.db
      .selectFrom('totp_factors')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return (
      r && {
        userId: Number(r.user_id),
        secretEnc: r.secret_enc,
        enabled: Number(r.enabled) === 1,
        lastStep: r.last_step === null ? null : Number(r.last_step),
        createdAt: Number(r.created_at),
      }
    );
  }

  async savePendingTotp(
    userId: number,
    secretEnc: string,
    now: number,
  ): Promise<boolean> {
    const res = await this.db
      .insertInto('totp_factors')
      .values({
        user_id: userId,
        secret_enc: secretEnc,
        enabled: 0,
        last_step: null,
        created_at: now,
      })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({
            secret_enc: secretEnc,
            last_step: null,
            created_at: now,
          })
          .where('totp_factors.enabled', '=', 0),
      )
      .executeTakeFirst();
    return changed(res) === 1;
  }

  async claimTotpStep(userId: number, step: number): Promise<boolean> {
    const res = await this.db
      .updateTable('totp_factors')
      .set({ last_step: step })
      .where('user_id', '=', userId)
      .where((eb) =>
        eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]),
      )
      .executeTakeFirst();
    return changed(res) === 1;
  }

  async enableTotp(
    userId: number,
    recoveryCodeHashes: string[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const res = await tx
        .updateTable('totp_factors')
        .set({ enabled: 1 })
        .where('user_id', '=', userId)
        .where('enabled', '=', 0)
        .executeTakeFirst();
      if (changed(res) !== 1) return false;
      await tx
        .deleteFrom('recovery_codes')
        .where('user_id', '=', userId)
        .execute();
      await tx
        .insertInto('recovery_codes')
        .values(
          recoveryCodeHashes.map((h) => ({
            user_id: userId,
            code_hash: h,
            used_at: null,
          })),
        )
        .execute();
      return true;
    });
  }

  async removeTotp(userId: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      await tx
        .deleteFrom('recovery_codes')
        .where('user_id', '=', userId)
        .execute();
      return (
        changed(
          await tx
            .deleteFrom('totp_factors')
            .where('user_id', '=', userId)
            .executeTakeFirst(),
        ) === 1
      );
    });
  }

  async replaceRecoveryCodes(
    userId: number,
    codeHashes: string[],
  ): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .deleteFrom('recovery_codes')
        .where('user_id', '=', userId)
        .execute();
      await tx
        .insertInto('recovery_codes')
        .values(
          codeHashes.map((h) => ({
            user_id: userId,
            code_hash: h,
            used_at: null,
          })),
        )
        .execute();
    });
  }

  async useRecoveryCode(
    userId: number,
    codeHash: string,
    now: number,
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return changed(res) >= 1;
  }

  async unusedRecoveryCodes(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }
}

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
  constructor(private readonly db: Kysely<Database>) {}

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
