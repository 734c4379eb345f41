import type { Kysely } from 'kysely';
import {
  enqueueDirect,
  type DeliveryKind,
  type DirectMessage,
  type LogoutTokenSubject,
  type ModerationTables,
} from '../moderation/index.js';
import type { AccountsTables } from '../accounts/index.js';
import type { AppsTables } from '../apps/index.js';
import type { SessionsTables } from '../sessions/index.js';
import type { OidcTables } from './tables.js';
import { narrow } from '../../platform/sql/narrow.js';

/** The outbox kind and event type of an OpenID Connect Back-Channel Logout message. */
export const BACKCHANNEL_KIND: DeliveryKind = 'backchannel';
export const BACKCHANNEL_EVENT_TYPE = 'oidc.backchannel_logout';

/**
 * What choosing the families to log out reads besides the families: the client's address
 * (apps), the sign-in the ID tokens came from (sessions) and the person's cut-off (users); and
 * the outbox the tokens are queued in.
 */
export type LogoutOutboxTables = OidcTables &
  AppsTables &
  SessionsTables &
  AccountsTables &
  ModerationTables;

/** The families to log out: given ones, or every live one of a person. */
export type LogoutSelection =
  | { familyIds: readonly string[] }
  | { liveOfUser: number };

/**
 * Queues one logout token per selected refresh family whose client registered a
 * `backchannel_logout_uri` and still takes part in something that can end (Back-Channel Logout
 * 1.0 §2.7): it holds a refresh token not expired, or ID tokens name it as `sid` and the center
 * sign-in they came from has not expired (a client with no refresh grant holds nothing else).
 * Written with `db` (the caller's transaction, so a rolled-back change sends none). A person's
 * live families are also unrevoked and started after their cut-off, from a sign-in not ended:
 * select them before the change that ends them.
 */
export async function enqueueLogoutTokens(
  db: Kysely<LogoutOutboxTables>,
  selection: LogoutSelection,
  now: number,
): Promise<void> {
  if ('familyIds' in selection && selection.familyIds.length === 0) return;
  // The sign-ins ending now are already marked ended when their own families are selected by id.
  const signInOpen = 'liveOfUser' in selection;
  let query = db
    .selectFrom('refresh_families as f')
    .innerJoin('apps as a', 'a.client_id', 'f.client_id')
    .select([
      'f.family_id',
      'f.user_id',
      'f.client_id',
      'a.backchannel_logout_uri',
    ])
    .where('a.backchannel_logout_uri', '!=', '')
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('refresh_tokens as t')
            .select('t.token_hash')
            .whereRef('t.family_id', '=', 'f.family_id')
            .where('t.expires_at', '>', now),
        ),
        eb.and([
          eb('f.issues_id_tokens', '=', 1),
          eb.exists(
            eb
              .selectFrom('sessions as s')
              .select('s.id')
              .whereRef('s.id', '=', 'f.session_id')
              .where('s.expires_at', '>', now)
              .$if(signInOpen, (q) => q.where('s.ended_at', 'is', null)),
          ),
        ]),
      ]),
    );
  if ('familyIds' in selection) {
    query = query.where('f.family_id', 'in', selection.familyIds);
  } else {
    const userId = selection.liveOfUser;
    query = query
      .where('f.user_id', '=', userId)
      .where('f.revoked_at', 'is', null)
      .where((eb) =>
        eb(
          'f.created_at',
          '>',
          eb
            .selectFrom('users')
            .select('tokens_valid_after')
            .where('id', '=', userId),
        ),
      );
  }
  const rows = await query.orderBy('f.family_id').execute();
  const messages: DirectMessage[] = rows.map((r) => {
    const payload: LogoutTokenSubject = {
      aud: r.client_id,
      sub: String(r.user_id),
      sid: r.family_id,
    };
    return {
      kind: BACKCHANNEL_KIND,
      targetUrl: r.backchannel_logout_uri,
      type: BACKCHANNEL_EVENT_TYPE,
      orderKey: `user:${r.user_id}`,
      payload: { ...payload },
    };
  });
  await enqueueDirect(narrow(db), messages, now);
}
