import {
  sql,
  type ExpressionBuilder,
  type Kysely,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import {
  enqueueLogoutTokens,
  type LogoutOutboxTables,
} from './logout-outbox.js';

/**
 * The revocations of refresh families that end what a person sees as signed in, each with
 * the logout tokens that tell the clients, in one transaction.
 */

/** The tokens of the family on the row at hand, in a statement on refresh_families. */
export const tokensOfFamily = ({
  selectFrom,
}: ExpressionBuilder<LogoutOutboxTables, 'refresh_families'>) =>
  selectFrom('refresh_tokens')
    .select('token_hash')
    .whereRef('refresh_tokens.family_id', '=', 'refresh_families.family_id');

/** The revocation, at a given time, of the families of one person not yet revoked. */
type LiveFamiliesRevocation = UpdateQueryBuilder<
  LogoutOutboxTables,
  'refresh_families',
  'refresh_families',
  UpdateResult
>;

/**
 * Revokes those of the person's live families that `narrow` keeps. The bulk revocations end
 * what a person sees as signed in: the clients hear of it in the same transaction.
 */
function revokeAndTell(
  db: Kysely<LogoutOutboxTables>,
  userId: number,
  now: number,
  narrow: (revocation: LiveFamiliesRevocation) => LiveFamiliesRevocation,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const revoked = await narrow(
      trx
        .updateTable('refresh_families')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null),
    )
      .returning('family_id')
      .execute();
    const ids = revoked.map((r) => r.family_id);
    await enqueueLogoutTokens(trx, { familyIds: ids }, now);
    return ids;
  });
}

/**
 * Back-Channel Logout 1.0 §2.7: a family granted `offline_access` outlives the sign-in (the
 * client asked to act while the person is away), so it is told of the logout but kept.
 */
export function revokeFamiliesOfSession(
  db: Kysely<LogoutOutboxTables>,
  sessionId: string,
  userId: number,
  now: number,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const ofSession = await trx
      .selectFrom('refresh_families')
      .select('family_id')
      .where('session_id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    if (ofSession.length === 0) return [];
    const all = ofSession.map((r) => r.family_id);
    const revoked = await trx
      .updateTable('refresh_families')
      .set({ revoked_at: now })
      .where('family_id', 'in', all)
      .where('revoked_at', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            tokensOfFamily(eb).where(
              sql<string>`' ' || refresh_tokens.scope || ' '`,
              'like',
              '% offline_access %',
            ),
          ),
        ),
      )
      .returning('family_id')
      .execute();
    await enqueueLogoutTokens(trx, { familyIds: all }, now);
    return revoked.map((r) => r.family_id);
  });
}

export function revokeFamiliesOf(
  db: Kysely<LogoutOutboxTables>,
  userId: number,
  clientId: string,
  now: number,
): Promise<string[]> {
  return revokeAndTell(db, userId, now, (revocation) =>
    revocation.where('client_id', '=', clientId),
  );
}

export function revokeLiveFamiliesOf(
  db: Kysely<LogoutOutboxTables>,
  userId: number,
  now: number,
  createdAfter: number,
): Promise<string[]> {
  return revokeAndTell(db, userId, now, (revocation) =>
    revocation
      .where('created_at', '>', createdAfter)
      .where((eb) =>
        eb.exists(
          tokensOfFamily(eb).where('refresh_tokens.expires_at', '>', now),
        ),
      ),
  );
}
