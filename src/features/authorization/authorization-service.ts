import { badParam, fail, refused } from '../../errors/index.js';
import type { Outcome } from '../../errors/outcome.js';
import { codeStateOf, exchangeFailure, transition } from './code-state.js';
import { pkceForAuthorize, verifyPkce } from './pkce.js';
import {
  composeRedirectUrl,
  grantScope,
  isRegisteredRedirect,
} from '../apps/index.js';
import { admits, type App } from '../apps/index.js';
import { isBanned, type User } from '../accounts/index.js';
import type {
  AuthorizeBody,
  ClientInfo,
  ExchangeBody,
  ExchangeReply,
  IssuedCode,
} from './contract.js';
import type { ClientResolution } from '../apps/index.js';
import type { Caller } from '../../platform/http/typed-scope.js';
import {
  matchesHash,
  newTimedSecret,
  timedSecretKey,
} from '../../platform/crypto/random.js';
import { throttledExchange, type RateLimiter } from '../limits/index.js';
import type { CodeReplays } from './code-replay.js';
import type { Config } from '../../config/index.js';
import type { ClientDirectory } from '../apps/index.js';
import type { SignIns, TokenService, UserCache } from '../sessions/index.js';
import type { AuthCodeRepo } from './repository.js';

export type AuthorizeInput = AuthorizeBody;
export type ExchangeInput = ExchangeBody;

const unwrap = <T>(o: Outcome<T>): T => {
  if (!o.ok) throw refused(o);
  return o.value;
};
const blank = (v: string | undefined): boolean => v === undefined || v === '';

/** The app of a resolution for the authorization-code flow, or the failure it is. */
function usableApp(resolved: ClientResolution): App {
  // This purpose never resolves to a built-in client, so a usable one always has its row.
  if (!resolved.ok || !resolved.client.app)
    throw fail(resolved.ok ? 'unknownApp' : resolved.reason);
  return resolved.client.app;
}

function clientInfoOf(app: App, redirectUri: string): ClientInfo {
  return {
    client_id: app.clientId,
    display_name: app.displayName,
    homepage: app.homepage,
    scopes: app.scopes,
    redirect_ok: isRegisteredRedirect(app.redirectUris, redirectUri),
    client_type: app.clientType,
    pkce_required: app.clientType === 'public',
  };
}

export interface AuthorizationDeps {
  readonly now: () => number;
  readonly userCache: UserCache;
  readonly tokens: TokenService;
  readonly clients: ClientDirectory;
  readonly signIns: SignIns;
  readonly storage: {
    readonly codes: AuthCodeRepo;
  };
  readonly config: Pick<Config, 'authCodeTtl'>;
}

/**
 * client_info, POST /authorize and exchange (docs/api.md §5.3–5.5, §5).
 * Apps come from the app cache (features/apps/app-cache.ts): a change made on this instance
 * applies to the very next request, one made on another instance within 4 s.
 */
export class AuthorizationService {
  constructor(
    private readonly ctx: AuthorizationDeps,
    private readonly limiter: RateLimiter,
    private readonly replays: CodeReplays,
  ) {}

  /** A registered, active app usable for the authorization-code flow. */
  private async activeApp(clientId: string): Promise<App> {
    return usableApp(
      await this.ctx.clients.resolveClient(clientId, 'authorization_code'),
    );
  }

  /** What the authorization page shows of an app, and whether the callback is registered. */
  async clientInfo(clientId: string, redirectUri: string): Promise<ClientInfo> {
    return clientInfoOf(await this.activeApp(clientId), redirectUri);
  }

  /**
   * Issues a one-time code for the signed-in user. Order of checks: app (404/403), exact
   * callback, PKCE parameters, scope — so nothing is issued toward an unregistered address.
   */
  async authorize(user: User, input: AuthorizeInput): Promise<IssuedCode> {
    const app = await this.activeApp(input.client_id);
    if (!isRegisteredRedirect(app.redirectUris, input.redirect_uri))
      throw fail('redirectNotAllowed');
    // Before anything is issued toward the app (docs/api.md, roles); admins are not exempt.
    if (!admits(app, user)) throw fail('appRoleRequired');
    const pkce = unwrap(
      pkceForAuthorize(
        app.clientType,
        input.code_challenge,
        input.code_challenge_method,
      ),
    );
    const scope = grantScope(input.scope, app.scopes);
    if (scope === undefined) throw fail('badScope');

    const ttl = this.ctx.config.authCodeTtl;
    const now = this.ctx.now();
    const code = newTimedSecret();
    await this.ctx.storage.codes.create({
      codeHash: timedSecretKey(code),
      clientId: app.clientId,
      userId: user.id,
      redirectUri: input.redirect_uri,
      scope,
      codeChallenge: pkce?.challenge ?? null,
      codeChallengeMethod: pkce?.method ?? null,
      expiresAt: now + ttl * 1000,
      createdAt: now,
    });
    return {
      code,
      redirect_url: composeRedirectUrl(input.redirect_uri, code, input.state),
      expires_in: ttl,
    };
  }

  /**
   * Exchanges a code for a token. Order of checks, each with its docs/api.md §1.9 msg:
   * client_id present → app known (404) → active (403) → client credential (confidential:
   * secret and code present, secret right; public: code present) → code exists, belongs to
   * this client and callback → code state (used: replay, expired) → PKCE → atomic consume.
   * A wrong verifier or secret never burns the code; a replay burns the token issued from it.
   */
  async exchange(input: ExchangeInput, caller: Caller): Promise<ExchangeReply> {
    return throttledExchange(this.limiter, input.client_id, caller.ip, () =>
      this.exchangeOnce(input, caller),
    );
  }

  private async exchangeOnce(
    input: ExchangeInput,
    caller: Caller,
  ): Promise<ExchangeReply> {
    if (blank(input.client_id)) throw fail('confidentialFields');
    const app = await this.activeApp(input.client_id!);
    if (app.clientType === 'confidential') {
      if (blank(input.client_secret) || blank(input.code))
        throw fail('confidentialFields');
      if (
        app.secretHash === null ||
        !matchesHash(input.client_secret!, app.secretHash)
      )
        throw fail('badSecret');
    } else if (blank(input.code)) {
      throw badParam('code');
    }

    const codeHash = timedSecretKey(input.code!);
    const code = await this.ctx.storage.codes.findByHash(codeHash);
    if (!code || code.clientId !== app.clientId || code.flow !== 'v1')
      throw fail('codeInvalid');
    if (
      input.redirect_uri !== undefined &&
      input.redirect_uri !== code.redirectUri
    )
      throw fail('codeInvalid');

    const { outcome } = transition(
      codeStateOf(code, this.ctx.now()),
      'exchange',
    );
    if (outcome === 'replay') return this.replayed(codeHash, caller);
    if (outcome !== 'token') throw fail(exchangeFailure(outcome));
    unwrap(verifyPkce(code.codeChallenge, input.code_verifier));

    const user = await this.ctx.userCache.findById(code.userId);
    if (!user) throw fail('codeInvalid');
    if (isBanned(user, this.ctx.now())) throw fail('banned');
    if (!admits(app, user)) throw fail('appRoleRequired');
    // The token is minted first so the one conditional UPDATE that uses up the code also
    // records its jti: exactly one concurrent caller wins, and every replay, however it
    // interleaves, finds the jti to revoke.
    const { body, claims } = await this.ctx.tokens.envelope(user, app.clientId);
    if (
      !(await this.ctx.storage.codes.consume(codeHash, this.ctx.now(), {
        jti: claims.jti,
        exp: claims.exp,
      }))
    ) {
      const after = await this.ctx.storage.codes.findByHash(codeHash);
      if (after?.usedAt != null) return this.replayed(codeHash, caller);
      throw fail(
        exchangeFailure(
          transition(codeStateOf(after, this.ctx.now()), 'exchange').outcome,
        ),
      );
    }
    await this.ctx.signIns.record(claims, user, caller);
    return { ...body, scope: code.scope };
  }

  /** A reused code revokes the token issued from it (code-replay.ts). */
  private async replayed(codeHash: string, caller: Caller): Promise<never> {
    await this.replays.revokeIssued(codeHash, 'v1', caller);
    throw fail('codeUsed');
  }
}
