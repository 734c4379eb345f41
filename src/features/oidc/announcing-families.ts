import type { RefreshTokenRepo } from './repository.js';
import type { RevokedTokens } from '../sessions/index.js';

/** A revoked refresh family is this key in the shared revoked set; jti values (`<ms>.<random>`) never start so. */
export const revokedFamilyKey = (familyId: string) => `family:${familyId}`;

/**
 * The refresh-token repository the services write through: every family revocation (reuse
 * detected, RFC 7009 revocation, a session or an app authorization ended) also puts the
 * family in the revoked set that `me` already checks (stored, broadcast on the change bus,
 * polled by every instance). Access tokens carry their family as `sid`, so UserInfo and
 * introspection check them with one Map look-up instead of a read per request. The entry
 * lives as long as an access token minted before the revocation can.
 */
export class AnnouncingRefreshTokenRepo implements RefreshTokenRepo {
  constructor(
    private readonly repo: RefreshTokenRepo,
    private readonly revoked: Pick<RevokedTokens, 'revoke'>,
    private readonly accessTokenTtl: number,
    private readonly now: () => number,
  ) {}

  private announce(familyId: string, userId: number): Promise<void> {
    return this.revoked.revoke(
      revokedFamilyKey(familyId),
      userId,
      Math.ceil(this.now() / 1000) + this.accessTokenTtl,
    );
  }

  async revokeFamily(familyId: string, now: number): Promise<boolean> {
    const revoked = await this.repo.revokeFamily(familyId, now);
    // Announced even when another call revoked it first: that call may not have announced yet.
    const family = await this.repo.findFamily(familyId);
    if (family) await this.announce(familyId, family.userId);
    return revoked;
  }

  async revokeFamiliesOf(
    userId: number,
    clientId: string,
    now: number,
  ): Promise<string[]> {
    const ids = await this.repo.revokeFamiliesOf(userId, clientId, now);
    for (const id of ids) await this.announce(id, userId);
    return ids;
  }

  async revokeFamiliesOfSession(
    sessionId: string,
    userId: number,
    now: number,
  ): Promise<string[]> {
    const ids = await this.repo.revokeFamiliesOfSession(sessionId, userId, now);
    for (const id of ids) await this.announce(id, userId);
    return ids;
  }

  async revokeLiveFamiliesOf(
    userId: number,
    now: number,
    createdAfter: number,
  ): Promise<string[]> {
    const ids = await this.repo.revokeLiveFamiliesOf(userId, now, createdAfter);
    for (const id of ids) await this.announce(id, userId);
    return ids;
  }

  createFamily(...args: Parameters<RefreshTokenRepo['createFamily']>) {
    return this.repo.createFamily(...args);
  }
  findFamily(familyId: string) {
    return this.repo.findFamily(familyId);
  }
  listLiveFamilies(...args: Parameters<RefreshTokenRepo['listLiveFamilies']>) {
    return this.repo.listLiveFamilies(...args);
  }
  create(...args: Parameters<RefreshTokenRepo['create']>) {
    return this.repo.create(...args);
  }
  findByHash(tokenHash: string) {
    return this.repo.findByHash(tokenHash);
  }
  findPresented(tokenHash: string) {
    return this.repo.findPresented(tokenHash);
  }
  use(tokenHash: string, now: number, successorHash: string) {
    return this.repo.use(tokenHash, now, successorHash);
  }
  latestInFamily(familyId: string) {
    return this.repo.latestInFamily(familyId);
  }
  purgeExpired(before: number) {
    return this.repo.purgeExpired(before);
  }
}
