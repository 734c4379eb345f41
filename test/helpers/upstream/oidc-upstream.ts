import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from '../net.js';

export interface UpstreamAccount {
  preferred_username?: string;
  name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  /** Released with the `groups` scope (a role map's default claim). */
  groups?: string[] | string;
}

export interface OidcUpstream {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in at the next interaction (the person at the upstream's login page). */
  signInAs(sub: string, account?: UpstreamAccount): void;
  /** How many interactions ran (sign-ins at the upstream). */
  readonly logins: number;
  close(): Promise<void>;
}

/**
 * A real OpenID provider upstream of the center: panva's oidc-provider (certified), with the
 * interaction (its login and consent pages) answered at once for the account set by
 * signInAs(), so API tests drive it with plain requests and browser tests with Chromium alike.
 */
export async function startOidcUpstream(
  redirectUris: string[],
  opts: { clientId?: string; clientSecret?: string } = {},
): Promise<OidcUpstream> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = opts.clientId ?? 'center';
  const clientSecret =
    opts.clientSecret ?? 'upstream-client-secret-0123456789-abcdefghijklmnop';
  const accounts = new Map<string, UpstreamAccount>();
  let current = 'alice';
  let logins = 0;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, ...(accounts.get(sub) ?? {}) }),
    }),
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'name', 'picture'],
      email: ['email', 'email_verified'],
      groups: ['groups'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) =>
        `/interaction/${interaction.uid}`,
    },
    cookies: { keys: ['upstream-test-cookie-key'] },
    pkce: { required: () => true },
  });
  const handler = provider.callback();
  const server: Server = createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) return handler(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      logins += 1;
      const grant = new provider.Grant({
        accountId: current,
        clientId: details.params.client_id,
      });
      grant.addOIDCScope(details.params.scope ?? 'openid');
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: current }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(port, '127.0.0.1', resolve),
  );
  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(sub, account = {}) {
      current = sub;
      accounts.set(sub, account);
    },
    get logins() {
      return logins;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
