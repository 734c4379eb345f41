import { badParam, fail } from '../../errors/index.js';
import { isValidRole } from '../accounts/index.js';
import { UniqueViolation } from '../../platform/sql/unique-violation.js';
import { type User } from '../accounts/index.js';
import type { AdminUserView, UserPage } from './contract.js';
import type { Caller, Uses } from '../kit.js';

const PAGE_SIZE = 20;

export interface NewAccount {
  username: string;
  password: string;
  email: string;
  roles: string[];
}

export function adminUserView(u: User): AdminUserView {
  return {
    uid: u.id, username: u.username, display_name: u.displayName, email: u.email,
    email_verified: u.emailVerified, roles: u.roles, banned: u.banned,
  };
}

export type AdminDeps = Uses<'now' | 'passwords' | 'audit', 'users'>;

/** User administration shared by the admin API and the CLI. */
export class AdminService {
  constructor(private readonly ctx: AdminDeps) {}

  async searchUsers(q: string, page: number): Promise<UserPage> {
    const { users, total } = await this.ctx.storage.users.search(q.trim(), (page - 1) * PAGE_SIZE, PAGE_SIZE);
    return { users: users.map(adminUserView), total };
  }

  /** The user of that name; 404 when there is none. */
  async userNamed(username: string): Promise<User> {
    const user = await this.ctx.storage.users.findByUsername(username);
    if (!user) throw fail('unknownUser');
    return user;
  }

  /** Creates an account with a verified e-mail and the given roles (the CLI's `user create`). */
  async createUser(input: NewAccount, actor: string): Promise<User> {
    const user = await this.ctx.storage.users.create({
      username: input.username, email: input.email, displayName: input.username,
      passwordHash: await this.ctx.passwords.hash(input.password), emailVerified: true, roles: input.roles,
    }, this.ctx.now()).catch((err: unknown) => {
      if (err instanceof UniqueViolation) throw fail(err.field === 'email' ? 'emailTaken' : 'usernameTaken');
      throw err;
    });
    await this.ctx.audit.record('user.create', { actor, target: user.username });
    return user;
  }

  async setBanned(username: string, banned: boolean, actor: string | null, caller?: Caller) {
    const user = await this.userNamed(username);
    await this.ctx.storage.users.update(user.id, { banned }, this.ctx.now());
    await this.ctx.audit.record(banned ? 'user.ban' : 'user.unban', { actor, ip: caller?.ip ?? null, target: user.username });
    return adminUserView({ ...user, banned });
  }

  async setRoles(username: string, roles: string[], actor: string | null, caller?: Caller) {
    if (roles.length > 20 || !roles.every(isValidRole)) throw badParam('roles');
    const unique = [...new Set(roles)];
    const user = await this.userNamed(username);
    await this.ctx.storage.users.update(user.id, { roles: unique }, this.ctx.now());
    await this.ctx.audit.record('user.roles', { actor, ip: caller?.ip ?? null, target: user.username, detail: { from: user.roles, to: unique } });
    return adminUserView({ ...user, roles: unique });
  }
}

export { PAGE_SIZE as ADMIN_PAGE_SIZE };
