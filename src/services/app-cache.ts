import type { App, AppRepo } from '../storage/types.js';
import type { ChangeBus } from './change-bus.js';
import { NOT_CACHED, ReloadingCache } from './reloading-cache.js';

const MAX_CACHED_APPS = 10_000;

/**
 * Application rows as the hot paths read them (client_info, authorize, exchange, CORS, the
 * token endpoint, `me`'s disabled-app check): cached per instance like users
 * (services/reloading-cache.ts). Every app write announces itself on the change bus
 * (services/publishing-repos.ts), which drops the copy here at once and, through Redis or the
 * cluster primary, on other instances; without a bus another instance's change is seen
 * within CACHE_MAX_AGE_MS (4 s, inside the 5 s CONTRACT §2 allows). Writes pass through.
 */
export class AppCache implements AppRepo {
  private readonly rows: ReloadingCache<string, App | undefined>;

  constructor(private readonly repo: AppRepo, bus: ChangeBus, now: () => number = Date.now) {
    this.rows = new ReloadingCache((clientId) => repo.findById(clientId), MAX_CACHED_APPS, now);
    bus.subscribe((e) => {
      if (e.type === 'app') this.rows.forget(e.clientId);
    });
  }

  /** The row without waiting when a recent copy is cached (undefined: no such app); NOT_CACHED: call findById(). */
  cached(clientId: string): App | undefined | typeof NOT_CACHED {
    return this.rows.cached(clientId);
  }

  findById(clientId: string): Promise<App | undefined> {
    return this.rows.get(clientId);
  }

  create(...args: Parameters<AppRepo['create']>) { return this.repo.create(...args); }
  update(...args: Parameters<AppRepo['update']>) { return this.repo.update(...args); }
  listByOwner(ownerId: number) { return this.repo.listByOwner(ownerId); }
  listActive() { return this.repo.listActive(); }
  changedSince(since: number) { return this.repo.changedSince(since); }
  search(...args: Parameters<AppRepo['search']>) { return this.repo.search(...args); }
}
