import type { AuditLog } from '../audit/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { RevokedTokens } from '../sessions/index.js';
import type { AuthCodeRepo, CodeFlow } from './repository.js';

/** Ends a refresh family: the token side's business, handed in by the composition root. */
export type FamilyRevoker = (familyId: string, now: number) => Promise<unknown>;

/**
 * RFC 6749 §4.1.2 / RFC 9700 §4.5: an authorization code presented again after it was used
 * revokes what it issued. The one path for both flows, the v1 exchange (docs/api.md §5.5) and
 * the OpenID Connect code grant (§12.4): the consuming UPDATE recorded on the code the access
 * token's jti and, for OpenID Connect, the refresh family, so however a replay interleaves
 * with the first use it finds them here.
 */
export class CodeReplays {
  constructor(
    private readonly codes: Pick<AuthCodeRepo, 'markReplayed'>,
    private readonly revoked: Pick<RevokedTokens, 'revoke'>,
    private readonly revokeFamily: FamilyRevoker,
    private readonly audit: AuditLog,
    private readonly now: () => number,
  ) {}

  /** Marks the code replayed, revokes the token and family issued from it, and records it; the caller then refuses. */
  async revokeIssued(
    codeHash: string,
    flow: CodeFlow,
    caller: Caller,
  ): Promise<void> {
    const row = await this.codes.markReplayed(codeHash, this.now());
    if (row?.tokenJti && row.tokenExp !== null)
      await this.revoked.revoke(row.tokenJti, row.userId, row.tokenExp);
    if (row?.refreshFamily)
      await this.revokeFamily(row.refreshFamily, this.now());
    const detail = {
      token_revoked: Boolean(row?.tokenJti),
      ...(flow === 'oidc' && { flow }),
    };
    await this.audit.record('code.replay', {
      ip: caller.ip,
      target: row?.clientId ?? null,
      detail,
    });
  }
}
