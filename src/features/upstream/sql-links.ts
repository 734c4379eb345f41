import type { Kysely, Selectable } from 'kysely';
import type { UpstreamTables, UpstreamLinksTable } from './tables.js';
import { mapUnique } from '../../platform/sql/unique-mapping.js';
import { narrow } from '../../platform/sql/narrow.js';
import {
  insertUser,
  type NewUser,
  type User,
  type UserWriteTables,
} from '../accounts/index.js';
import { userEvent } from '../moderation/index.js';

/** The links, and the account a sign-in creates with its first link, in one transaction. */
type LinkTables = UpstreamTables & UserWriteTables;
import type { UpstreamLink, UpstreamLinkRepo } from './repository.js';

function toLink(r: Selectable<UpstreamLinksTable>): UpstreamLink {
  return {
    providerId: r.provider_id,
    subject: r.subject,
    userId: Number(r.user_id),
    displayName: r.display_name,
    avatarUrl: r.avatar_url,
    linkedAt: Number(r.linked_at),
    lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
    grantedRoles: grantedOf(r.granted_roles),
  };
}

/** The stored list; anything else (a hand-edited row) counts as nothing given. */
function grantedOf(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((r) => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

const rowOf = (l: UpstreamLink) => ({
  provider_id: l.providerId,
  subject: l.subject,
  user_id: l.userId,
  display_name: l.displayName,
  avatar_url: l.avatarUrl,
  linked_at: l.linkedAt,
  last_used_at: l.lastUsedAt,
  granted_roles: JSON.stringify(l.grantedRoles ?? []),
});

export class SqlUpstreamLinkRepo implements UpstreamLinkRepo {
  constructor(private readonly db: Kysely<LinkTables>) {}

  async find(
    providerId: string,
    subject: string,
  ): Promise<UpstreamLink | undefined> {
    const r = await this.db
      .selectFrom('upstream_links')
      .selectAll()
      .where('provider_id', '=', providerId)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return r && toLink(r);
  }

  async listByUser(userId: number): Promise<UpstreamLink[]> {
    const rows = await this.db
      .selectFrom('upstream_links')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('linked_at')
      .orderBy('provider_id')
      .execute();
    return rows.map(toLink);
  }

  async create(link: UpstreamLink): Promise<void> {
    await this.db
      .insertInto('upstream_links')
      .values(rowOf(link))
      .execute()
      .catch(mapUnique);
  }

  async createAccount(
    user: NewUser,
    link: Omit<UpstreamLink, 'userId'>,
    now: number,
  ): Promise<User> {
    return this.db.transaction().execute(async (trx) => {
      const created = await insertUser(narrow(trx), user, now, (u) => [
        userEvent('user.created', u, {
          display_name: u.displayName,
          email: u.email,
        }),
      ]);
      await trx
        .insertInto('upstream_links')
        .values(rowOf({ ...link, userId: created.id }))
        .execute()
        .catch(mapUnique);
      return created;
    });
  }

  async touch(
    providerId: string,
    subject: string,
    seen: { displayName: string; avatarUrl: string },
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('upstream_links')
      .set({
        display_name: seen.displayName,
        avatar_url: seen.avatarUrl,
        last_used_at: now,
      })
      .where('provider_id', '=', providerId)
      .where('subject', '=', subject)
      .execute();
  }

  async setGrantedRoles(
    userId: number,
    providerId: string,
    roles: readonly string[],
  ): Promise<void> {
    await this.db
      .updateTable('upstream_links')
      .set({ granted_roles: JSON.stringify(roles) })
      .where('user_id', '=', userId)
      .where('provider_id', '=', providerId)
      .execute();
  }

  async remove(userId: number, providerId: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('upstream_links')
      .where('user_id', '=', userId)
      .where('provider_id', '=', providerId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async removeAllOf(userId: number): Promise<void> {
    await this.db
      .deleteFrom('upstream_links')
      .where('user_id', '=', userId)
      .execute();
  }
}
