import { createHmac } from 'node:crypto';
import { randomToken, sha256Hex } from '../../platform/crypto/random.js';
import { derivedKey } from '../../platform/crypto/derived-key.js';
import type { BrowserBinding } from './browser-binding.js';
import { FLOW_TTL_MS } from './browser-binding.js';
import type { FlowKind, UpstreamFlow, UpstreamFlowRepo } from './repository.js';
import type { FlowValues } from './protocols/index.js';

export interface FlowFields {
  userId?: number | null;
  sessionKey?: string | null;
  next: string;
  payload?: unknown;
}

/**
 * States and tickets of the browser flow: 256 random bits each, handed to the browser (or, for
 * a state, to the provider and back) and stored only as their SHA-256 with the browser's
 * binding hash. Single use, FLOW_TTL_MS. The PKCE verifier and the nonce are not stored at
 * all: they are keyed hashes of the state, which only this service can compute.
 */
export class FlowStore {
  constructor(
    private readonly repo: UpstreamFlowRepo,
    private readonly binding: BrowserBinding,
    jwtSecret: string,
    private readonly now: () => number,
  ) {
    this.valueKey = derivedKey(jwtSecret, 'upstream-flow-values');
  }

  /** The key of the PKCE verifier and nonce derived from a state. */
  private readonly valueKey: Buffer;

  /** A new state or ticket of `kind` for the browser whose binding hashes to `browserHash`; answers its value. */
  async issue(
    kind: FlowKind,
    providerId: string,
    browserHash: string,
    fields: FlowFields,
  ): Promise<string> {
    const value = randomToken(32);
    const now = this.now();
    await this.repo.put({
      keyHash: sha256Hex(value),
      kind,
      providerId,
      browserHash,
      userId: fields.userId ?? null,
      sessionKey: fields.sessionKey ?? null,
      next: fields.next,
      payload: JSON.stringify(fields.payload ?? {}),
      createdAt: now,
      expiresAt: now + FLOW_TTL_MS,
    });
    return value;
  }

  /**
   * The live row of `value` if it is of `kind`, for `providerId` (when given) and presented by
   * the browser that began it; not used up yet (see consume). Anything else: undefined.
   */
  async find(
    value: string | null | undefined,
    kind: FlowKind,
    cookieHeader: string | undefined,
    providerId?: string,
  ): Promise<UpstreamFlow | undefined> {
    if (!value || value.length > 128) return undefined;
    const flow = await this.repo.find(sha256Hex(value));
    if (
      !flow ||
      flow.kind !== kind ||
      flow.usedAt !== null ||
      flow.expiresAt <= this.now()
    )
      return undefined;
    if (providerId !== undefined && flow.providerId !== providerId)
      return undefined;
    return this.binding.matches(cookieHeader, flow.browserHash)
      ? flow
      : undefined;
  }

  /** Uses the row up; true for the one caller that did (of any number of concurrent ones). */
  consume(flow: UpstreamFlow): Promise<boolean> {
    return this.repo.consume(flow.keyHash, this.now());
  }

  /** The values a protocol needs for the flow of `state`. */
  values(
    state: string,
    redirectUri: string,
    realm: string,
    fresh: boolean,
  ): FlowValues {
    return {
      state,
      codeVerifier: this.derived('pkce', state),
      nonce: this.derived('nonce', state),
      redirectUri,
      realm,
      fresh,
    };
  }

  /** 43 characters of [A-Za-z0-9_-]: a valid PKCE verifier (RFC 7636 §4.1) and nonce. */
  private derived(purpose: string, state: string): string {
    return createHmac('sha256', this.valueKey)
      .update(`upstream-${purpose}:${state}`)
      .digest('base64url');
  }
}
