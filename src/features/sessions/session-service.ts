import { fail } from '../../errors/index.js';
import type { MeData, TokenEnvelope } from './contract.js';
import { userEvent } from '../moderation/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Authenticated } from './token-service.js';
import type { UserRepo } from '../accounts/index.js';
import type { AuditLog } from '../audit/index.js';
import type { SignIns } from './sign-ins.js';
import type { ClientDirectory } from '../apps/index.js';
import type { TokenService } from './token-service.js';

export interface SessionDeps {
  readonly now: () => number;
  readonly tokens: TokenService;
  readonly audit: AuditLog;
  readonly signIns: SignIns;
  readonly storage: {
    readonly users: UserRepo;
  };
  readonly clients: ClientDirectory;
}

/** Only a body `{ "all": true }` asks for logout-all; any other body is a plain logout (docs/api.md §3). */
function asksForAll(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    'all' in body &&
    body.all === true
  );
}

/** The signed-in session: who it is, a fresh token, and the end of it (docs/api.md §3). */
export class SessionService {
  constructor(private readonly ctx: SessionDeps) {}

  /** The user as stored now, with the token's app and expiry. */
  me({ user, claims }: Authenticated): MeData {
    return {
      uid: user.id,
      username: user.username,
      display_name: user.displayName,
      email: user.email,
      email_verified: user.emailVerified,
      roles: user.roles,
      app: claims.app,
      exp: claims.exp,
    };
  }

  /**
   * A new token for the same user and app, with that app's lifetime, in the same session
   * (`sid` kept, so ending the session ends the refreshed token too). A token from before
   * sessions existed starts one.
   */
  async refresh(
    { user, claims }: Authenticated,
    caller: Caller,
  ): Promise<TokenEnvelope> {
    // A token of an app limited to roles is not renewed once the person holds none of them.
    if (!(await this.ctx.clients.admitsRoles(claims.app, user.roles)))
      throw fail('appRoleRequired');
    const issued = await this.ctx.tokens.envelope(
      user,
      claims.app,
      undefined,
      claims.sid,
    );
    if (claims.sid === undefined)
      await this.ctx.signIns.record(issued.claims, user, caller);
    else await this.ctx.signIns.extend(claims.sid, issued.claims.exp);
    return issued.body;
  }

  /**
   * Revokes the Bearer token, and with `{ all: true }` every token of its user. A signed,
   * unexpired token is revoked even when its user is banned or it was revoked before; any
   * other header is ignored, since logout always succeeds. Signing out everywhere needs a
   * token that `me` accepts (checked before this logout revokes it): a stolen token that was
   * revoked, cut off by a password reset, banned or of a disabled app cannot sign the user
   * out again and again.
   */
  async logout(
    authorization: string | undefined,
    body: unknown,
    caller: Caller,
  ): Promise<void> {
    const { tokens, audit } = this.ctx;
    const claims = await tokens.decode(authorization);
    if (!claims) return;
    const all = asksForAll(body) && (await this.accepted(authorization));
    // Revoking the token ends its session too (TokenService.revoke), so a refreshed sibling dies.
    await tokens.revoke(claims);
    if (all) await this.revokeAll(claims.uid);
    await audit.record(all ? 'logout.all' : 'logout', {
      actor: claims.sub,
      ip: caller.ip,
      target: claims.sub,
    });
  }

  /** Whether the header passes every check of `me` (signature, expiry, revocation, cut-off, ban, app). */
  private async accepted(authorization: string | undefined): Promise<boolean> {
    try {
      await this.ctx.tokens.check(authorization);
      return true;
    } catch {
      return false;
    }
  }

  /** Ends every token of the user issued until now (logout-all, an administrator's forced reset). */
  async revokeAll(userId: number): Promise<void> {
    const { storage, now, signIns } = this.ctx;
    const user = await storage.users.findById(userId);
    const events = user
      ? [userEvent('user.sessions_revoked', user, { cause: 'logout_all' })]
      : [];
    await storage.users.update(
      userId,
      { tokensValidAfter: now() },
      now(),
      events,
    );
    await signIns.markAllEnded(userId);
  }
}
