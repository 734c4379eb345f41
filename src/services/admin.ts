import { AppError, MSG, badParam } from '../errors/index.js';
import { isValidRole } from '../domain/accounts.js';
import type { User } from '../storage/types.js';
import type { AdminUserView } from '../domain/wire.js';
import type { Caller, ServiceContext } from './context.js';

const PAGE_SIZE = 20;

export function adminUserView(u: User): AdminUserView {
  return {
    uid: u.id, username: u.username, display_name: u.displayName, email: u.email,
    email_verified: u.emailVerified, roles: u.roles, banned: u.banned,
  };
}

/** User administration shared by the admin API and the CLI. */
export class AdminService {
  constructor(private readonly ctx: ServiceContext) {}

  async searchUsers(q: string, page: number) {
    const { users, total } = await this.ctx.storage.users.search(q.trim(), (page - 1) * PAGE_SIZE, PAGE_SIZE);
    return { users: users.map(adminUserView), total };
  }

  private async target(username: string): Promise<User> {
    const user = await this.ctx.storage.users.findByUsername(username);
    if (!user) throw new AppError(404, MSG.unknownUser);
    return user;
  }

  async setBanned(username: string, banned: boolean, actor: string | null, caller?: Caller) {
    const user = await this.target(username);
    await this.ctx.storage.users.update(user.id, { banned }, this.ctx.now());
    this.ctx.state.userChanged(user.id);
    await this.ctx.audit.record(banned ? 'user.ban' : 'user.unban', { actor, ip: caller?.ip ?? null, target: user.username });
    return adminUserView({ ...user, banned });
  }

  async setRoles(username: string, roles: string[], actor: string | null, caller?: Caller) {
    if (roles.length > 20 || !roles.every(isValidRole)) throw badParam('roles');
    const unique = [...new Set(roles)];
    const user = await this.target(username);
    await this.ctx.storage.users.update(user.id, { roles: unique }, this.ctx.now());
    this.ctx.state.userChanged(user.id);
    await this.ctx.audit.record('user.roles', { actor, ip: caller?.ip ?? null, target: user.username, detail: { from: user.roles, to: unique } });
    return adminUserView({ ...user, roles: unique });
  }
}

export { PAGE_SIZE as ADMIN_PAGE_SIZE };
