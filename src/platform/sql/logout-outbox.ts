import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { enqueueDirect, type DirectMessage } from './outbox.js';

/** The outbox kind and event type of an OpenID Connect Back-Channel Logout message. */
export const BACKCHANNEL_KIND = 'backchannel';
export const BACKCHANNEL_EVENT_TYPE = 'oidc.backchannel_logout';

/** Webhook events that end every session of a person: each also logs out the clients holding their tokens. */
export const SESSION_ENDING_EVENTS: readonly string[] = [
  'user.sessions_revoked',
  'user.banned',
  'user.deleted',
];

/**
 * What a logout token says, without what is decided when it is sent (`iss`, `iat`, `exp`,
 * `jti`): the token is signed at each try, so a retry never carries an expired one and no key
 * or signed token waits in the outbox.
 */
export interface LogoutTokenSubject {
  /** The client (`aud`). */
  aud: string;
  /** The person, as in that client's ID tokens. */
  sub: string;
  /** The refresh family, the `sid` of that client's ID tokens. */
  sid: string;
}

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
  db: Kysely<Database>,
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
  await enqueueDirect(db, messages, now);
}
