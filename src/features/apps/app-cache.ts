import type { App, AppRepo } from './repository.js';
import type { ChangeBus } from '../../platform/bus/change-bus.js';
import { ChangeFeed } from '../../platform/bus/change-feed.js';
import { RowCache } from '../../platform/cache/row-cache.js';

const MAX_CACHED_APPS = 10_000;

/**
 * Application rows as the hot paths read them (client_info, authorize, exchange, CORS, the
 * token endpoint, `me`'s disabled-app check): cached per instance like users
 * (platform/cache/row-cache.ts). Every app write announces itself on the change bus
 * (app/publishing-repos.ts), which drops the copy here at once and, through Redis or the
 * cluster primary, on other instances; without a bus another instance's change is seen
 * through the change feed within about a second (docs/api.md §3 allows 5 s). Writes pass through.
 */
export class AppCache implements AppRepo {
  private readonly rows: RowCache<string, App>;
  private readonly feed: ChangeFeed<string>;

  constructor(
    private readonly repo: AppRepo,
    bus: ChangeBus,
    now: () => number = Date.now,
  ) {
    this.rows = new RowCache(
      (clientId) => repo.findById(clientId),
      MAX_CACHED_APPS,
      now,
    );
    this.feed = new ChangeFeed(
      (since) => repo.changedSince(since),
      this.rows,
      now,
    );
    bus.subscribe((e) => {
      if (e.type === 'app') this.rows.forget(e.clientId);
    });
  }

  /** Follows other instances' app changes (one query a second) until stop(). */
  start(): void {
    this.feed.start();
  }

  stop(): void {
    this.feed.stop();
  }

  findById(clientId: string): Promise<App | undefined> {
    return this.rows.get(clientId);
  }

  create(...args: Parameters<AppRepo['create']>) {
    return this.repo.create(...args);
  }
  update(...args: Parameters<AppRepo['update']>) {
    return this.repo.update(...args);
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
