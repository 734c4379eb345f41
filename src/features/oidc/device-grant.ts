import { decidePoll } from '../device/index.js';
import type { AuditLog } from '../audit/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Atomically } from '../../platform/transactions/atomically.js';
import { isBanned } from '../accounts/index.js';
import { sha256Hex } from '../../platform/crypto/random.js';
import type { UserCache } from '../sessions/index.js';
import { admits, type App } from '../apps/index.js';
import type { DeviceCodeRepo } from '../device/index.js';
import type { TokenIssuer, TokenResponse } from './issuer.js';
import type { RefreshTokenRepo } from './repository.js';
import { OAuthError, heldRefusal, invalidGrant } from './oauth-error.js';
import { required, type Params } from './params.js';

/**
 * The RFC 8628 §3.4 device_code grant over the v1 API's device codes: the same rows, 6-digit
 * codes, `/device` page and approval; only codes started at /oauth/device_authorization (they
 * carry a scope) are redeemed here, and only by the client they were issued to.
 */
export class DeviceGrant {
  constructor(
    private readonly devices: DeviceCodeRepo,
    private readonly users: Pick<UserCache, 'findById'>,
    private readonly issuer: TokenIssuer,
    private readonly audit: AuditLog,
    private readonly atomically: Atomically<{
      devices: DeviceCodeRepo;
      refreshTokens: RefreshTokenRepo;
    }>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Refusals of a real device code of this client (denied, expired, used, its person gone) are
   * held, not guesses: the token endpoint's throttle gives their tries back (oauth-error.ts).
   */
  async redeem(app: App, body: Params, caller: Caller): Promise<TokenResponse> {
    const hash = sha256Hex(required(body, 'device_code'));
    const code = await this.devices.findByHash(hash);
    if (!code || code.scope === null || code.clientId !== app.clientId)
      throw invalidGrant('The device code is invalid');
    const now = this.now();
    const decision = decidePoll(code, now);
    if (decision.kind === 'fail')
      throw heldRefusal(
        decision.error,
        decision.error === 'access_denied'
          ? 'The user denied the request'
          : 'The device code has expired',
      );
    if (decision.kind === 'wait') {
      await this.devices.recordPoll(hash, now, decision.interval);
      throw new OAuthError(
        decision.error,
        decision.error === 'slow_down'
          ? 'Poll less often'
          : 'The user has not approved yet',
      );
    }
    const user = await this.users.findById(decision.userId);
    if (!user || isBanned(user, now) || code.createdAt <= user.tokensValidAfter)
      throw heldRefusal('access_denied', 'The user can no longer sign in');
    if (!admits(app, user))
      throw heldRefusal(
        'access_denied',
        'The user holds none of the roles this client requires',
      );
    const family = this.issuer.newFamily(app, user);
    const grant = {
      app,
      user,
      scope: code.scope,
      authTimeMs: now,
      familyId: family.familyId,
    };
    const access = await this.issuer.accessFor(grant);
    const signed = await this.issuer.sign(grant, access);
    // Single use: of concurrent polls only the one that moves approved → used stores its
    // family and refresh token, in the same transaction; the others store nothing.
    const redeemed = await this.atomically(async (tx) => {
      if (!(await tx.devices.transition(hash, 'approved', 'used')))
        return false;
      await tx.refreshTokens.createFamily(family);
      await this.issuer.store(signed, tx.refreshTokens);
      return true;
    });
    if (!redeemed)
      throw heldRefusal('expired_token', 'The device code has expired');
    await this.audit.signedIn(user, caller, 'oidc', {
      target: app.clientId,
      detail: { grant: 'device_code' },
    });
    return signed.response;
  }
}
