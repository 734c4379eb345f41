import type { TestUser } from '../helpers/app.js';
import {
  startOidcUpstream,
  type OidcUpstream,
} from '../helpers/upstream/oidc-upstream.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import { addProvider } from '../helpers/upstream/flow.js';

/** A center with the provider `corp` at a real OpenID provider, which also accepts the google and microsoft callbacks. */
export interface CorpCenter {
  center: ListeningCenter;
  upstream: OidcUpstream;
  admin: TestUser;
}

export async function startCorpCenter(): Promise<CorpCenter> {
  const center = await listeningCenter();
  const upstream = await startOidcUpstream(
    ['corp', 'google', 'microsoft'].map(
      (id) => `${center.baseUrl}/login/${id}/callback`,
    ),
  );
  const admin = await center.admin();
  await addProvider(center, admin, {
    id: 'corp',
    type: 'oidc',
    name: 'Corp SSO',
    client_id: upstream.clientId,
    client_secret: upstream.clientSecret,
    issuer: upstream.issuer,
  });
  return { center, upstream, admin };
}

/** Stops whatever of `s` was started, the provider first. */
export async function closeCorpCenter(s: Partial<CorpCenter>) {
  await s.upstream?.close();
  await s.center?.close();
}
