import { admits } from '../apps/index.js';
import { narrowed } from './scope-narrowing.js';
import { verifyPkce } from '../authorization/index.js';
import type { App } from '../apps/index.js';
import type { AuditLog } from '../audit/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { Atomically } from '../../platform/transactions/atomically.js';
import {
  newTimedSecret,
  timedSecretKey,
} from '../../platform/crypto/random.js';
import type { RevokedTokens, UserCache } from '../sessions/index.js';
import type { AuthCodeRepo, CodeReplays } from '../authorization/index.js';
import type { PresentedRefreshToken, RefreshTokenRepo } from './repository.js';
import { isBanned, type User } from '../accounts/index.js';
import type { TokenIssuer, TokenResponse } from './issuer.js';
import { OAuthError, invalidGrant, heldGrant } from './oauth-error.js';
import { param, required, type Params } from './params.js';
import type { TokenMinter } from './token-minter.js';
import { RotationAnswers } from './rotation-answers.js';
import { clientCredentials } from './client-credentials.js';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const NOT_ADMITTED = 'The user holds none of the roles this client requires';

export interface GrantDeps {
  codes: AuthCodeRepo;
  replays: CodeReplays;
  refreshTokens: RefreshTokenRepo;
  users: Pick<UserCache, 'findById'>;
  revokedTokens: Pick<RevokedTokens, 'revoke'>;
  issuer: TokenIssuer;
  minter: TokenMinter;
  audit: AuditLog;
  /** Writes that must hold together (platform/transactions). */
  atomically: Atomically<{
    codes: AuthCodeRepo;
    refreshTokens: RefreshTokenRepo;
  }>;
  now: () => number;
}

/** A person who may still receive tokens: exists, not banned, not cut off after `sinceMs`. */
async function usableUser(
  users: Pick<UserCache, 'findById'>,
  userId: number,
  sinceMs: number,
  now: number,
): Promise<User | undefined> {
  const user = await users.findById(userId);
  if (!user || isBanned(user, now) || sinceMs <= user.tokensValidAfter)
    return undefined;
  return user;
}

/** The authorization_code, refresh_token and client_credentials grants (docs/api.md §12.4). */
export class TokenGrants {
  /** Whether a lost rotation is a race or reuse (rotation-answers.ts). */
  private readonly rotations = new RotationAnswers();

  constructor(private readonly deps: GrantDeps) {}

  async authorizationCode(
    app: App,
    body: Params,
    caller: Caller,
  ): Promise<TokenResponse> {
    const { codes, now } = this.deps;
    const codeHash = timedSecretKey(required(body, 'code'));
    const redirectUri = param(body, 'redirect_uri');
    const verifier = param(body, 'code_verifier');
    const code = await codes.findByHash(codeHash);
    if (code?.flow !== 'oidc' || code.clientId !== app.clientId)
      throw invalidGrant('The authorization code is invalid');
    if (code.usedAt !== null) return this.replayed(codeHash, caller);
    if (code.expiresAt <= now())
      throw heldGrant('The authorization code has expired');
    // RFC 6749 §4.1.3: required and identical when it was sent at authorize; when it was not, any value sent must still be the one used.
    if (
      code.redirectUriGiven
        ? redirectUri !== code.redirectUri
        : redirectUri !== undefined && redirectUri !== code.redirectUri
    ) {
      throw invalidGrant(
        'redirect_uri does not match the authorization request',
      );
    }
    // A public client's code without PKCE is never redeemed, whatever let it be issued.
    if (app.clientType === 'public' && code.codeChallenge === null)
      throw invalidGrant('PKCE is required for public clients');
    if (!verifyPkce(code.codeChallenge, verifier).ok)
      throw invalidGrant('PKCE verification failed');
    const user = await usableUser(
      this.deps.users,
      code.userId,
      code.createdAt,
      now(),
    );
    if (!user) throw invalidGrant('The authorization code is invalid');
    if (!admits(app, user)) throw heldGrant(NOT_ADMITTED);

    const { issuer } = this.deps;
    const familyId = await issuer.startFamily(
      app,
      user,
      code.sessionId,
      code.scope,
    );
    const grant = {
      app,
      user,
      scope: code.scope,
      authTimeMs: code.authTime ?? code.createdAt,
      nonce: code.nonce,
      amr: code.amr,
      familyId,
    };
    const access = await issuer.accessFor(grant);
    const signed = await issuer.sign(grant, access);
    // One conditional UPDATE uses the code up and records what it issued: exactly one
    // concurrent caller wins, and a replay however interleaved finds the jti and family to
    // revoke. The refresh token is stored in the same transaction: both or neither.
    const consumed = await this.deps.atomically(async (tx) => {
      if (
        !(await tx.codes.consumeOidc(codeHash, now(), {
          jti: access.claims.jti,
          exp: access.claims.exp,
          refreshFamily: familyId,
        }))
      )
        return false;
      await issuer.store(signed, tx.refreshTokens);
      return true;
    });
    if (!consumed) {
      await this.deps.refreshTokens.revokeFamily(familyId, now());
      const again = await codes.findByHash(codeHash);
      if (again?.usedAt != null) return this.replayed(codeHash, caller);
      throw heldGrant('The authorization code has expired');
    }
    // The person's sign-in at the application was recorded when their browser got the code.
    await this.deps.audit.record('oidc.token', {
      actor: user.username,
      ip: caller.ip,
      target: app.clientId,
      detail: { grant: 'authorization_code' },
    });
    return signed.response;
  }

  /** A reused code revokes the tokens issued from it, access token and refresh family (authorization's code-replay.ts). */
  private async replayed(codeHash: string, caller: Caller): Promise<never> {
    await this.deps.replays.revokeIssued(codeHash, 'oidc', caller);
    throw heldGrant('The authorization code has already been used');
  }

  async refreshToken(
    app: App,
    body: Params,
    caller: Caller,
  ): Promise<TokenResponse> {
    const { refreshTokens } = this.deps;
    const hash = timedSecretKey(required(body, 'refresh_token'));
    const requestedScope = param(body, 'scope');
    // The first read: what it shows of a rotation of this token decides a race from reuse.
    const presented = await refreshTokens.findPresented(hash);
    const rotationAnswered =
      presented !== undefined &&
      this.rotations.answeredBefore(presented, caller);
    // Bound to its client: another client presenting it learns nothing and burns nothing.
    if (!presented || presented.clientId !== app.clientId)
      throw invalidGrant('The refresh token is invalid');
    const scope = narrowed(requestedScope, presented.scope);
    const successor = newTimedSecret();
    const successorHash = timedSecretKey(successor);
    this.rotations.begin(successorHash);
    try {
      return (
        (await this.rotate(app, presented, scope, successor)) ??
        (await this.refreshRefused(presented, rotationAnswered, caller))
      );
    } finally {
      this.rotations.answered(successorHash);
    }
  }

  /**
   * The response of a rotation of `presented` to `successor`, or undefined when the token was
   * not usable (used, revoked, expired, its family revoked), also when that happened meanwhile.
   * The tokens are signed first; then one transaction uses the presented token up, re-checking
   * it and its family, and stores its successor: both or neither.
   */
  private async rotate(
    app: App,
    presented: PresentedRefreshToken,
    scope: string,
    successor: string,
  ): Promise<TokenResponse | undefined> {
    const { refreshTokens, issuer, now } = this.deps;
    if (
      presented.usedAt !== null ||
      presented.revokedAt !== null ||
      presented.expiresAt <= now()
    )
      return undefined;
    const family = await refreshTokens.findFamily(presented.familyId);
    if (family?.revokedAt != null) return undefined;
    const user =
      family &&
      (await usableUser(
        this.deps.users,
        presented.userId,
        family.createdAt,
        now(),
      ));
    if (!family || !user) {
      await refreshTokens.revokeFamily(presented.familyId, now());
      throw invalidGrant('The refresh token is invalid');
    }
    // The family is kept: the person may be given the role again before it expires.
    if (!admits(app, user)) throw heldGrant(NOT_ADMITTED);
    const grant = {
      app,
      user,
      scope: presented.scope,
      authTimeMs: presented.authTime,
      amr: presented.amr,
      familyId: presented.familyId,
    };
    const access = await issuer.accessFor(grant, scope);
    const signed = await issuer.sign(grant, access, {
      refreshToken: successor,
      scope: presented.scope,
    });
    const rotated = await this.deps.atomically(async (tx) => {
      if (
        !(await tx.refreshTokens.use(
          presented.tokenHash,
          now(),
          timedSecretKey(successor),
        ))
      )
        return false;
      await issuer.store(signed, tx.refreshTokens);
      return true;
    });
    return rotated ? signed.response : undefined;
  }

  /**
   * Why a rotation lost. Reuse, when the token had been used and the answer of the rotation
   * that used it was ready before this request arrived (rotation-answers.ts): the client
   * presents a token after its successor was handed out, and the whole family dies (RFC 9700 §4.14.2).
   * Otherwise the same client is racing itself (two tabs, a retry, two instances): refused
   * without harming the winner's fresh tokens.
   */
  private async refreshRefused(
    presented: PresentedRefreshToken,
    rotationAnswered: boolean,
    caller: Caller,
  ): Promise<never> {
    const now = this.deps.now();
    const current = await this.deps.refreshTokens.findByHash(
      presented.tokenHash,
    );
    if (current?.usedAt == null)
      throw heldGrant('The refresh token is invalid or expired');
    if (!rotationAnswered)
      throw new OAuthError(
        'invalid_grant',
        'The refresh token is being rotated by a concurrent request',
        400,
        {},
        true,
      );
    if (await this.deps.refreshTokens.revokeFamily(current.familyId, now)) {
      await this.deps.audit.record('refresh.reuse', {
        ip: caller.ip,
        target: current.clientId,
        detail: { family_revoked: true },
      });
    }
    throw heldGrant('The refresh token has already been used');
  }

  /** RFC 6749 §4.4: the client acts for itself (client-credentials.ts). */
  async clientCredentials(app: App, body: Params): Promise<TokenResponse> {
    return clientCredentials(this.deps.minter, app, body);
  }
}
