import { badParam, fail, AppError } from '../../errors/index.js';
import {
  isValidRole,
  RoleAssignment,
  type CatalogueRole,
  type RoleActor,
  type RoleEntry,
} from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { AppRepo } from '../apps/index.js';
import type { RoleRepo, UserRepo } from '../accounts/index.js';
import type { AdminUserView, RoleView } from './contract.js';
import { adminUserView } from './user-view.js';

const DISPLAY_NAME_MAX = 64;
const DESCRIPTION_MAX = 500;
/** How many holders of one role the console lists. */
export const ROLE_MEMBERS_SHOWN = 200;

export interface RoleInput {
  name: string;
  display_name?: string;
  display_name_en?: string;
  description?: string;
}

export interface RoleCatalogueDeps {
  readonly now: () => number;
  readonly audit: AuditLog;
  readonly storage: {
    readonly users: UserRepo;
    readonly roles: RoleRepo;
    readonly apps: AppRepo;
  };
}

function roleView(r: RoleEntry): RoleView {
  return {
    name: r.name,
    display_name: r.displayName,
    display_name_en: r.displayNameEn,
    description: r.description,
    members: r.members,
    builtin: r.builtin,
  };
}

/** A display name or description as given: trimmed, within its length; `fallback` when absent. */
function text(
  field: string,
  v: string | undefined,
  max: number,
  fallback: string,
): string {
  if (v === undefined) return fallback;
  const t = v.trim();
  if ([...t].length > max || /[\p{Cc}]/u.test(t)) throw badParam(field);
  return t;
}

/**
 * The role catalogue as administrators keep it (docs/api.md, roles): list with member counts,
 * add or edit, remove. A removed role is taken from every holder, each change made and
 * announced as any other change of roles is.
 */
export class RoleCatalogue {
  private readonly assignment: RoleAssignment;

  constructor(private readonly ctx: RoleCatalogueDeps) {
    this.assignment = new RoleAssignment(ctx);
  }

  async list(): Promise<RoleView[]> {
    return (await this.ctx.storage.roles.list()).map(roleView);
  }

  /** Creates the role, or changes what an administrator wrote about one; fields left out stay. */
  async save(input: RoleInput, actor: RoleActor): Promise<RoleView> {
    if (!isValidRole(input.name)) throw badParam('name');
    const current: CatalogueRole | undefined =
      await this.ctx.storage.roles.find(input.name);
    const displayName = text(
      'display_name',
      input.display_name,
      DISPLAY_NAME_MAX,
      current?.displayName ?? input.name,
    );
    const displayNameEn = text(
      'display_name_en',
      input.display_name_en,
      DISPLAY_NAME_MAX,
      current?.displayNameEn ?? input.name,
    );
    const description = text(
      'description',
      input.description,
      DESCRIPTION_MAX,
      current?.description ?? '',
    );
    await this.ctx.storage.roles.save(
      {
        name: input.name,
        displayName: displayName || input.name,
        displayNameEn: displayNameEn || input.name,
        description,
      },
      this.ctx.now(),
    );
    await this.ctx.audit.record(current ? 'role.update' : 'role.create', {
      actor: actor.name,
      ip: actor.ip ?? null,
      target: input.name,
    });
    const saved = (await this.ctx.storage.roles.list()).find(
      (r) => r.name === input.name,
    );
    if (!saved) throw fail('unknownRole');
    return roleView(saved);
  }

  /** Refused for `player` and `admin`, and while an app requires the role (naming the apps). */
  async remove(name: string, actor: RoleActor): Promise<void> {
    const role = await this.ctx.storage.roles.find(name);
    if (!role) throw fail('unknownRole');
    if (role.builtin) throw fail('builtinRole');
    const apps = await this.ctx.storage.apps.requiringRole(name);
    if (apps.length > 0)
      throw new AppError(
        'roleRequiredByApps',
        undefined,
        apps.map((a) => `${a.displayName} (${a.clientId})`).join(', '),
      );
    // Holders lose it first: a user row never names a role the catalogue has dropped for good.
    for (;;) {
      const holders = await this.ctx.storage.roles.holders(name, 100);
      if (holders.length === 0) break;
      for (const user of holders)
        await this.assignment.setRoles(
          user.id,
          user.roles.filter((r) => r !== name),
          actor,
        );
    }
    await this.ctx.storage.roles.remove(name);
    await this.ctx.audit.record('role.remove', {
      actor: actor.name,
      ip: actor.ip ?? null,
      target: name,
    });
  }

  /** The first holders of a role, for the console's Roles tab. */
  async members(name: string): Promise<AdminUserView[]> {
    if (!isValidRole(name)) throw badParam('name');
    const now = this.ctx.now();
    return (await this.ctx.storage.roles.holders(name, ROLE_MEMBERS_SHOWN)).map(
      (u) => adminUserView(u, now),
    );
  }
}
