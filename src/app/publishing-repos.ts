import type {
  App,
  AppRepo,
  BackchannelCap,
  NewApp,
} from '../features/apps/repository.js';
import type { User, UserRepo } from '../features/accounts/repository.js';
import type { ChangeBus } from '../platform/bus/change-bus.js';

/**
 * The user repository the services write through: every write announces the changed user on
 * the change bus (here at once, on other instances through Redis or the cluster primary), so
 * no cache serves the old row and no caller has to remember to say so.
 */
export class PublishingUserRepo implements UserRepo {
  constructor(
    private readonly repo: UserRepo,
    private readonly bus: ChangeBus,
  ) {}

  create(...args: Parameters<UserRepo['create']>): Promise<User> {
    return this.repo.create(...args);
  }

  async update(
    id: number,
    ...rest: Parameters<UserRepo['update']> extends [number, ...infer R]
      ? R
      : never
  ): Promise<void> {
    await this.repo.update(id, ...rest);
    this.bus.publish({ type: 'user', id });
  }

  async setRolesKeepingOne(
    id: number,
    ...rest: Parameters<UserRepo['setRolesKeepingOne']> extends [
      number,
      ...infer R,
    ]
      ? R
      : never
  ): Promise<boolean> {
    const changed = await this.repo.setRolesKeepingOne(id, ...rest);
    if (changed) this.bus.publish({ type: 'user', id });
    return changed;
  }

  async endExpiredBans(
    ...args: Parameters<UserRepo['endExpiredBans']>
  ): Promise<User[]> {
    const lifted = await this.repo.endExpiredBans(...args);
    for (const user of lifted) this.bus.publish({ type: 'user', id: user.id });
    return lifted;
  }

  findById(id: number) {
    return this.repo.findById(id);
  }
  findByUsername(username: string) {
    return this.repo.findByUsername(username);
  }
  findByEmail(email: string) {
    return this.repo.findByEmail(email);
  }
  findByLogin(login: string) {
    return this.repo.findByLogin(login);
  }
  search(...args: Parameters<UserRepo['search']>) {
    return this.repo.search(...args);
  }
  changedSince(since: number) {
    return this.repo.changedSince(since);
  }
  count() {
    return this.repo.count();
  }
  createdPerDay(since: number) {
    return this.repo.createdPerDay(since);
  }
  listAfter(...args: Parameters<UserRepo['listAfter']>) {
    return this.repo.listAfter(...args);
  }
  takenKeys(...args: Parameters<UserRepo['takenKeys']>) {
    return this.repo.takenKeys(...args);
  }
  /** New rows only: nothing is cached for a user who did not exist. */
  insertMany(...args: Parameters<UserRepo['insertMany']>) {
    return this.repo.insertMany(...args);
  }
}

/** The app repository the services write through: every write announces the changed app. */
export class PublishingAppRepo implements AppRepo {
  constructor(
    private readonly repo: AppRepo,
    private readonly bus: ChangeBus,
  ) {}

  async create(app: NewApp, now: number, cap?: BackchannelCap): Promise<App> {
    const created = await this.repo.create(app, now, cap);
    this.bus.publish({ type: 'app', clientId: created.clientId });
    return created;
  }

  async update(
    clientId: string,
    ...rest: Parameters<AppRepo['update']> extends [string, ...infer R]
      ? R
      : never
  ): Promise<App | undefined> {
    const app = await this.repo.update(clientId, ...rest);
    this.bus.publish({ type: 'app', clientId });
    return app;
  }

  findById(clientId: string) {
    return this.repo.findById(clientId);
  }
  listByOwner(ownerId: number) {
    return this.repo.listByOwner(ownerId);
  }
  listActive() {
    return this.repo.listActive();
  }
  changedSince(since: number) {
    return this.repo.changedSince(since);
  }
  search(...args: Parameters<AppRepo['search']>) {
    return this.repo.search(...args);
  }
  requiringRole(role: string) {
    return this.repo.requiringRole(role);
  }
}
