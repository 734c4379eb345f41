/**
 * Roles from the provider (docs/upstream.md "Roles from the provider"): at every sign-in,
 * link and re-authentication through a provider with a role map, the mapped roles follow the
 * upstream memberships.
 *
 * What the map may take away: only the roles it gave through this link, recorded on the link
 * when given. A mapped role the person already held (given by hand, or by another provider)
 * is never recorded, so it is never removed by this map; a role that leaves the map is
 * forgotten from the record and stays as it is. Roles are changed before the record: a
 * failure in between leaves a role that looks hand-given, never a hand-given role taken.
 */
import type { Logger } from 'pino';
import type { AuditLog } from '../audit/index.js';
import { providerTarget } from './flow-failure.js';
import type { Memberships } from './protocols/index.js';
import type { ProviderRecord, UpstreamLinkRepo } from './repository.js';

/** A change of one user's roles on behalf of a provider. */
export interface RoleChange {
  add: string[];
  remove: string[];
}

/**
 * The accounts-level change of a user's roles, wired in the composition root: applies the
 * change in one write with one `user.roles_changed` event and one audit entry by `actor`,
 * never taking `admin` from the last administrator. Returns what was applied.
 */
export interface RoleSync {
  apply(userId: number, change: RoleChange, actor: string): Promise<RoleChange>;
}

export const providerActor = (providerId: string) => `provider:${providerId}`;

export class RoleMapSync {
  constructor(
    private readonly links: Pick<
      UpstreamLinkRepo,
      'listByUser' | 'setGrantedRoles'
    >,
    private readonly roles: RoleSync,
    private readonly heldRoles: (
      userId: number,
    ) => Promise<string[] | undefined>,
    private readonly audit: AuditLog,
    private readonly log: Logger,
  ) {}

  /** Never throws: a failure leaves the roles as they were and is logged and audited. */
  async sync(
    provider: ProviderRecord,
    userId: number,
    memberships: Memberships | undefined,
  ): Promise<void> {
    const map = provider.settings.roleMap;
    if (!map || !memberships) return;
    if ('error' in memberships) {
      await this.failed(provider, userId, memberships.error);
      return;
    }
    try {
      await this.follow(provider, map, userId, memberships.values);
    } catch (err) {
      this.log.error(
        { err, provider: provider.id, userId },
        'roles from the provider not applied',
      );
    }
  }

  private async follow(
    provider: ProviderRecord,
    map: Record<string, string>,
    userId: number,
    values: readonly string[],
  ): Promise<void> {
    const held = await this.heldRoles(userId);
    const links = await this.links.listByUser(userId);
    const link = links.find((l) => l.providerId === provider.id);
    if (!held || !link) return;
    const mapped = new Set(Object.values(map));
    const upstream = new Set(
      values.flatMap((v) => (Object.hasOwn(map, v) ? [map[v] as string] : [])),
    );
    const granted = (link.grantedRoles ?? []).filter((r) => mapped.has(r));
    // A role another link's map gave stays while that provider still says so.
    const grantedElsewhere = new Set(
      links
        .filter((l) => l.providerId !== provider.id)
        .flatMap((l) => l.grantedRoles ?? []),
    );
    const add = [...upstream].filter((r) => !held.includes(r));
    const remove = granted.filter(
      (r) => !upstream.has(r) && held.includes(r) && !grantedElsewhere.has(r),
    );
    const applied =
      add.length || remove.length
        ? await this.roles.apply(
            userId,
            { add, remove },
            providerActor(provider.id),
          )
        : { add: [], remove: [] };
    const next = [
      ...new Set([
        ...granted.filter((r) => upstream.has(r)),
        ...applied.add,
        // Asked to go but kept (the last administrator's admin): still this map's to take.
        ...remove.filter((r) => !applied.remove.includes(r)),
      ]),
    ].sort();
    if (next.join(' ') !== [...(link.grantedRoles ?? [])].sort().join(' '))
      await this.links.setGrantedRoles(userId, provider.id, next);
  }

  private async failed(
    provider: ProviderRecord,
    userId: number,
    error: string,
  ): Promise<void> {
    this.log.warn(
      { provider: provider.id, userId, error },
      'memberships not read; roles left as they were',
    );
    await this.audit.record('identity.roles_unread', {
      actor: providerActor(provider.id),
      target: providerTarget(provider.id),
      detail: { uid: userId, error },
    });
  }
}
