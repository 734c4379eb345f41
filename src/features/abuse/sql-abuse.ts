import { sql, type Kysely, type Selectable } from 'kysely';
import type { AbuseTables, InvitesTable } from './tables.js';
import type { CaptchaUseRepo, Invite, InviteRepo } from './repository.js';

export class SqlCaptchaUseRepo implements CaptchaUseRepo {
  constructor(private readonly db: Kysely<AbuseTables>) {}

  async claim(challengeHash: string, expiresAt: number): Promise<boolean> {
    const res = await this.db
      .insertInto('captcha_uses')
      .values({ challenge_hash: challengeHash, expires_at: expiresAt })
      .onConflict((oc) => oc.column('challenge_hash').doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async purgeExpired(now: number): Promise<number> {
    const res = await this.db
      .deleteFrom('captcha_uses')
      .where('expires_at', '<', now)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

function toInvite(r: Selectable<InvitesTable>): Invite {
  return {
    id: r.id,
    uses: Number(r.uses),
    used: Number(r.used),
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    createdBy: r.created_by,
    createdAt: Number(r.created_at),
  };
}

export class SqlInviteRepo implements InviteRepo {
  constructor(private readonly db: Kysely<AbuseTables>) {}

  async create(i: Invite & { codeHash: string }): Promise<void> {
    await this.db
      .insertInto('invites')
      .values({
        id: i.id,
        code_hash: i.codeHash,
        uses: i.uses,
        used: i.used,
        expires_at: i.expiresAt,
        created_by: i.createdBy,
        created_at: i.createdAt,
      })
      .execute();
  }

  async usable(codeHash: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('invites')
      .select('id')
      .where('code_hash', '=', codeHash)
      .where(sql<boolean>`used < uses`)
      .where((eb) =>
        eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  async takeUse(codeHash: string, now: number): Promise<boolean> {
    const res = await this.db
      .updateTable('invites')
      .set({ used: sql<number>`used + 1` })
      .where('code_hash', '=', codeHash)
      .where(sql<boolean>`used < uses`)
      .where((eb) =>
        eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
      )
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  async list(): Promise<Invite[]> {
    const rows = await this.db
      .selectFrom('invites')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toInvite);
  }

  async remove(id: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('invites')
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }
}
