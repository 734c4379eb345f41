import { AppError, MSG, badParam } from '../errors/index.js';
import { isActive } from '../domain/app-state.js';
import { isReservedClientId, type Outcome } from '../domain/clients.js';
import { codeStateOf, exchangeFailureMsg, transition } from '../domain/code-state.js';
import { pkceForAuthorize, verifyPkce } from '../domain/pkce.js';
import { composeRedirectUrl, isRegisteredRedirect } from '../domain/redirect.js';
import { grantScope } from '../domain/scope.js';
import type { App, User } from '../storage/types.js';
import type { ClientInfo } from '../domain/wire.js';
import type { Caller, ServiceContext } from './context.js';
import { matchesHash, randomToken, sha256Hex } from './crypto.js';
import { throttledExchange } from './limits.js';
import type { TokenEnvelope } from './tokens.js';

export interface AuthorizeInput {
  client_id: string;
  redirect_uri: string;
  state?: string;
  scope?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export interface ExchangeInput {
  client_id?: string;
  code?: string;
  client_secret?: string;
  code_verifier?: string;
  redirect_uri?: string;
}

const unwrap = <T>(o: Outcome<T>): T => {
  if (!o.ok) throw new AppError(o.status, o.msg);
  return o.value;
};
const blank = (v: string | undefined): boolean => v === undefined || v === '';

/**
 * client_info, POST /authorize and exchange (SPEC §4.2–4.4, CONTRACT §4).
 * Every check here reads the database directly: app status, callbacks and secrets are
 * never served from a cache, so a change applies to the very next request.
 */
export class AuthorizationService {
  constructor(private readonly ctx: ServiceContext) {}

  /** A registered, active app; the service's own ids never act as OAuth clients. */
  private async activeApp(clientId: string): Promise<App> {
    const { config, storage } = this.ctx;
    const app = isReservedClientId(clientId, [config.centerAppId, config.gameAppId]) ? undefined : await storage.apps.findById(clientId);
    if (!app) throw new AppError(404, MSG.unknownApp);
    if (!isActive(app.status)) throw new AppError(403, MSG.appDisabled);
    return app;
  }

  async clientInfo(clientId: string, redirectUri: string): Promise<ClientInfo> {
    const app = await this.activeApp(clientId);
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

  /**
   * Issues a one-time code for the signed-in user. Order of checks: app (404/403), exact
   * callback, PKCE parameters, scope — so nothing is issued toward an unregistered address.
   */
  async authorize(user: User, input: AuthorizeInput): Promise<{ code: string; redirect_url: string; expires_in: number }> {
    const app = await this.activeApp(input.client_id);
    if (!isRegisteredRedirect(app.redirectUris, input.redirect_uri)) throw new AppError(400, MSG.redirectNotAllowed);
    const pkce = unwrap(pkceForAuthorize(app.clientType, input.code_challenge, input.code_challenge_method));
    const scope = grantScope(input.scope, app.scopes);
    if (scope === undefined) throw new AppError(400, MSG.badScope);

    const ttl = this.ctx.config.authCodeTtl;
    const code = randomToken(32);
    const now = this.ctx.now();
    await this.ctx.storage.codes.create({
      codeHash: sha256Hex(code),
      clientId: app.clientId,
      userId: user.id,
      redirectUri: input.redirect_uri,
      scope,
      codeChallenge: pkce?.challenge ?? null,
      codeChallengeMethod: pkce?.method ?? null,
      expiresAt: now + ttl * 1000,
      createdAt: now,
    });
    return { code, redirect_url: composeRedirectUrl(input.redirect_uri, code, input.state), expires_in: ttl };
  }

  /**
   * Exchanges a code for a token. Order of checks, each with its SPEC §7 msg:
   * client_id present → app known (404) → active (403) → client credential (confidential:
   * secret and code present, secret right; public: code present) → code exists, belongs to
   * this client and callback → code state (used: replay, expired) → PKCE → atomic consume.
   * A wrong verifier or secret never burns the code; a replay burns the token issued from it.
   */
  async exchange(input: ExchangeInput, caller: Caller): Promise<TokenEnvelope & { scope: string }> {
    return throttledExchange(this.ctx, input.client_id, caller.ip, () => this.exchangeOnce(input, caller));
  }

  private async exchangeOnce(input: ExchangeInput, caller: Caller): Promise<TokenEnvelope & { scope: string }> {
    if (blank(input.client_id)) throw new AppError(400, MSG.confidentialFields);
    const app = await this.activeApp(input.client_id!);
    if (app.clientType === 'confidential') {
      if (blank(input.client_secret) || blank(input.code)) throw new AppError(400, MSG.confidentialFields);
      if (app.secretHash === null || !matchesHash(input.client_secret!, app.secretHash)) throw new AppError(401, MSG.badSecret);
    } else if (blank(input.code)) {
      throw badParam('code');
    }

    const codeHash = sha256Hex(input.code!);
    const code = await this.ctx.storage.codes.findByHash(codeHash);
    if (!code || code.clientId !== app.clientId) throw new AppError(400, MSG.codeInvalid);
    if (input.redirect_uri !== undefined && input.redirect_uri !== code.redirectUri) throw new AppError(400, MSG.codeInvalid);

    const { outcome } = transition(codeStateOf(code, this.ctx.now()), 'exchange');
    if (outcome === 'replay') return this.replayed(codeHash, caller);
    if (outcome !== 'token') throw new AppError(400, exchangeFailureMsg(outcome));
    unwrap(verifyPkce(code.codeChallenge, input.code_verifier));

    const user = await this.ctx.state.user(code.userId);
    if (!user) throw new AppError(400, MSG.codeInvalid);
    if (user.banned) throw new AppError(403, MSG.banned);
    // The token is minted first so the one conditional UPDATE that uses up the code also
    // records its jti: exactly one concurrent caller wins, and every replay, however it
    // interleaves, finds the jti to revoke.
    const { body, claims } = this.ctx.tokens.envelope(user, app.clientId);
    if (!(await this.ctx.storage.codes.consume(codeHash, this.ctx.now(), { jti: claims.jti, exp: claims.exp }))) {
      const now = await this.ctx.storage.codes.findByHash(codeHash);
      if (now?.usedAt != null) return this.replayed(codeHash, caller);
      throw new AppError(400, exchangeFailureMsg(transition(codeStateOf(now, this.ctx.now()), 'exchange').outcome));
    }
    return { ...body, scope: code.scope };
  }

  /** RFC 6749 §4.1.2 / RFC 9700 §4.5: a reused code revokes the token issued from it. */
  private async replayed(codeHash: string, caller: Caller): Promise<never> {
    const row = await this.ctx.storage.codes.markReplayed(codeHash, this.ctx.now());
    if (row?.tokenJti && row.tokenExp !== null) await this.ctx.state.revoke(row.tokenJti, row.userId, row.tokenExp);
    await this.ctx.audit.record('code.replay', { ip: caller.ip, target: row?.clientId ?? null, detail: { token_revoked: Boolean(row?.tokenJti) } });
    throw new AppError(400, MSG.codeUsed);
  }
}
