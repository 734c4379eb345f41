import { withQuery, type AuthorizationRequest } from './authorize-rules.js';
import {
  newTimedSecret,
  timedSecretKey,
} from '../../platform/crypto/random.js';
import type { AuditLog } from '../audit/index.js';
import type { Authenticated } from '../sessions/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import type { AuthCodeRepo } from '../authorization/index.js';
import { amrOfMethod, type SessionRepo } from '../sessions/index.js';
import { signedInAt } from './browser-session.js';

/** The codes of the authorization endpoint, and what the sign-in behind them says. */
export class AuthorizeCodes {
  constructor(
    private readonly repos: {
      codes: AuthCodeRepo;
      sessions: Pick<SessionRepo, 'findById'>;
    },
    private readonly settings: { issuer: string; authCodeTtl: number },
    private readonly audit: AuditLog,
    private readonly now: () => number,
  ) {}

  /** A single-use code, stored only as its hash, bound to the request's callback, PKCE and nonce. */
  async issue(
    request: AuthorizationRequest,
    session: Authenticated,
    browser: Caller,
  ): Promise<string> {
    const now = this.now();
    const code = newTimedSecret();
    await this.repos.codes.create({
      codeHash: timedSecretKey(code),
      clientId: request.clientId,
      userId: session.user.id,
      redirectUri: request.redirectUri,
      scope: request.scopes.join(' '),
      codeChallenge: request.codeChallenge ?? null,
      codeChallengeMethod: request.codeChallenge === undefined ? null : 'S256',
      expiresAt: now + this.settings.authCodeTtl * 1000,
      createdAt: now,
      flow: 'oidc',
      nonce: request.nonce ?? null,
      authTime: signedInAt(session),
      redirectUriGiven: request.redirectUriGiven,
      amr: await this.amrOf(session),
      sessionId: session.claims.sid ?? null,
    });
    await this.audit.signedIn(session.user, browser, 'oidc', {
      target: request.clientId,
      detail: { grant: 'authorization_code' },
    });
    return withQuery(request.redirectUri, {
      code,
      state: request.state,
      iss: this.settings.issuer,
    });
  }

  /**
   * The ID token's `amr` for this sign-in (docs/oidc.md, "acr and amr"): `fed` through another
   * account (docs/api.md §14.5), `otp mfa` after a second factor, `mfa` for a passkey;
   * null for a password or e-mail code alone.
   */
  async amrOf(session: Authenticated): Promise<string | null> {
    if (session.claims.sid === undefined) return null;
    return amrOfMethod(
      (await this.repos.sessions.findById(session.claims.sid))?.method ?? '',
    );
  }
}
