import { sql, type Kysely } from 'kysely';
import type { AccountsTables } from './tables.js';
import type { CatalogueRole, RoleEntry, RoleRepo } from './role-repository.js';
import { likePattern, toUser } from './user-rows.js';
import type { User } from './repository.js';

/** A JSON array of names holds `"name"` exactly when it holds that role (names have no quotes). */
const holding = (name: string) =>
  sql<boolean>`roles like ${likePattern(JSON.stringify(name))} escape '\\'`;

function toRole(r: {
  name: string;
  display_name: string;
  display_name_en: string;
  description: string;
  builtin: number | string;
}): CatalogueRole {
  return {
    name: r.name,
    displayName: r.display_name,
    displayNameEn: r.display_name_en,
    description: r.description,
    builtin: Number(r.builtin) === 1,
  };
}

export class SqlRoleRepo implements RoleRepo {
  constructor(
    private readonly db: Kysely<AccountsTables>,
    private readonly kind: 'sqlite' | 'postgres',
  ) {}

  async list(): Promise<RoleEntry[]> {
    // Roles are stored as a JSON array of names: each dialect unnests it its own way.
    const counts =
      this.kind === 'postgres'
        ? sql<{
            role: string;
            n: number | string;
          }>`select r.role, count(*) as n from users cross join lateral jsonb_array_elements_text(users.roles::jsonb) as r(role) group by r.role`
        : sql<{
            role: string;
            n: number | string;
          }>`select j.value as role, count(*) as n from users, json_each(users.roles) as j group by j.value`;
    const [rows, held] = await Promise.all([
      this.db
        .selectFrom('roles')
        .selectAll()
        .orderBy('builtin', 'desc')
        .orderBy('name')
        .execute(),
      counts.execute(this.db),
    ]);
    const members = new Map(held.rows.map((r) => [r.role, Number(r.n)]));
    // player before admin, as the pages have always shown them; then by name.
    return rows
      .map((r) => ({ ...toRole(r), members: members.get(r.name) ?? 0 }))
      .sort((a, b) =>
        a.builtin !== b.builtin
          ? Number(b.builtin) - Number(a.builtin)
          : a.builtin
            ? Number(a.name === 'admin') - Number(b.name === 'admin')
            : a.name < b.name
              ? -1
              : 1,
      );
  }

  async find(name: string): Promise<CatalogueRole | undefined> {
    const r = await this.db
      .selectFrom('roles')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    return r && toRole(r);
  }

  async save(
    role: Omit<CatalogueRole, 'builtin'>,
    now: number,
  ): Promise<CatalogueRole> {
    const r = await this.db
      .insertInto('roles')
      .values({
        name: role.name,
        display_name: role.displayName,
        display_name_en: role.displayNameEn,
        description: role.description,
        builtin: 0,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          display_name: role.displayName,
          display_name_en: role.displayNameEn,
          description: role.description,
          updated_at: now,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRole(r);
  }

  async remove(name: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('roles')
      .where('name', '=', name)
      .where('builtin', '=', 0)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async holders(name: string, limit: number): Promise<User[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where(holding(name))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toUser);
  }
}
