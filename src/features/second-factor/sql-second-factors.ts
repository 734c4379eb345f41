import type { Kysely } from 'kysely';
import type { SecondFactorTables } from './tables.js';
import { changed } from './changed-rows.js';
import type { SecondFactorRepo, TotpFactor } from './repository.js';

/** Puts `codeHashes` in place of the user's recovery codes, inside the caller's transaction. */
async function putRecoveryCodes(
  tx: Kysely<SecondFactorTables>,
  userId: number,
  codeHashes: string[],
): Promise<void> {
  await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
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
}

export class SqlSecondFactorRepo implements SecondFactorRepo {
  constructor(private readonly db: Kysely<SecondFactorTables>) {}

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
      await putRecoveryCodes(tx, userId, recoveryCodeHashes);
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
    await this.db
      .transaction()
      .execute((tx) => putRecoveryCodes(tx, userId, codeHashes));
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
