/** The one interface every kind of provider answers to (docs/api.md §14.2), and its failures. */
import type { ProviderRecord } from '../repository.js';

/** What a provider says about the person, read once from its answer and never kept beyond the link. */
export interface UpstreamProfile {
  /** The stable id at the provider (docs/api.md §14.1). */
  subject: string;
  username?: string;
  displayName?: string;
  email?: string;
  /** Whether the provider vouches for `email` (or is configured to be trusted). */
  emailVerified: boolean;
  avatarUrl?: string;
  /** What the provider's role map is matched against; absent when it has none. */
  memberships?: Memberships;
}

/** The upstream memberships (role ids, `org/team`, claim values), or why they could not be read. */
export type Memberships = { values: string[] } | { error: string };

/** A provider ready for a flow: the record with its secrets opened. */
export interface ActiveProvider {
  record: ProviderRecord;
  clientSecret?: string;
  apiKey?: string;
}

/** The values of one flow. The verifier and nonce are derived from the state, never stored. */
export interface FlowValues {
  state: string;
  codeVerifier: string;
  nonce: string;
  /** `{BASE_URL}/login/{id}/callback`, registered at the provider. */
  redirectUri: string;
  /** BASE_URL with a trailing slash: the OpenID 2.0 realm shown at Steam. */
  realm: string;
  /** A re-authentication: ask the provider to sign the person in again where it can. */
  fresh: boolean;
}

export interface UpstreamProtocol {
  /** Where the browser is sent to sign in. */
  authorizationUrl(p: ActiveProvider, flow: FlowValues): Promise<URL>;
  /** Checks the provider's answer (the callback address as received) and reads the profile. */
  complete(
    p: ActiveProvider,
    callback: URL,
    flow: FlowValues,
  ): Promise<UpstreamProfile>;
}

/**
 * Why a provider's answer was not a sign-in: the person declined, the provider refused or
 * answered something invalid, it could not be reached, or (Discord) the person is not a
 * member of the required server.
 */
export type UpstreamFailure = 'denied' | 'provider' | 'network' | 'notMember';

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
