import { basicAuth } from '../helpers/net.js';
import { sessionCookie, ticketOf } from '../helpers/oidc-pages.js';
import type { Call } from './registration-extras.js';
import { sendWith, type Reply } from './request.js';

/**
 * OpenID Connect refresh token families as a relying party keeps them: one is started with
 * the authorization code flow (the person's browser is the session cookie of their access
 * token, consenting when asked), then rotated at the token endpoint. The rotated tokens,
 * each answered 200, must never be honoured again (docs/oidc.md, RFC 9700 §4.14.2).
 */
export interface OidcClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface Family {
  /** The code that started it, whose exchange was answered 200. */
  code: string;
  /** The newest refresh token handed out. */
  latest: string;
  /** Refresh tokens whose rotation was answered 200: used up. */
  rotated: string[];
  /** Whether every request of the family was answered; a cut-off rotation may have used `latest`. */
  settled: boolean;
  /** Whether a used token was presented again, which ends the family. */
  replayed: boolean;
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const asClient = (c: OidcClient) => ({
  headers: { authorization: basicAuth(c.clientId, c.clientSecret) },
});

/** A new family for the person signed in with `token`, or undefined when a step was refused. */
export async function startFamily(
  call: Call,
  base: string,
  client: OidcClient,
  token: string,
): Promise<Family | undefined> {
  const browser = { headers: sessionCookie(token) };
  const query = form({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: 'openid',
    state: 'fault',
  });
  const asked = await call(
    base,
    'GET',
    `/oauth/authorize?${query}`,
    undefined,
    browser,
  );
  if (asked.status !== 302 || !asked.location) return undefined;
  let next = new URL(asked.location, base);
  if (next.pathname === '/authorize') {
    const consent = await call(
      base,
      'POST',
      '/oauth/consent',
      { ticket: ticketOf(next), decision: 'allow' },
      browser,
    );
    if (consent.status !== 200) return undefined;
    next = new URL(consent.body.data.redirect_to);
  }
  const code = next.searchParams.get('code');
  if (!next.href.startsWith(client.redirectUri) || !code) return undefined;
  const r = await call(
    base,
    'POST',
    '/oauth/token',
    form({
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
    }),
    asClient(client),
  );
  if (r.status !== 200 || typeof r.body.refresh_token !== 'string')
    return undefined;
  return {
    code,
    latest: r.body.refresh_token,
    rotated: [],
    settled: true,
    replayed: false,
  };
}

/** Rotates the family's newest token; false when that was not answered 200. */
export async function rotate(
  call: Call,
  base: string,
  client: OidcClient,
  family: Family,
): Promise<boolean> {
  const r = await call(
    base,
    'POST',
    '/oauth/token',
    form({ grant_type: 'refresh_token', refresh_token: family.latest }),
    asClient(client),
  );
  if (r.status !== 200 || typeof r.body.refresh_token !== 'string') {
    family.settled = false;
    return false;
  }
  family.rotated.push(family.latest);
  family.latest = r.body.refresh_token;
  return true;
}

/** The families the workers of the traffic rotate: one each at a time, so none races itself. */
export class WorkerFamilies {
  readonly all: Family[] = [];
  private readonly current = new Map<number, Family>();

  constructor(private readonly client: OidcClient) {}

  /** Worker `w` rotates its family, first starting one as the person signed in with `token` when it has none. */
  async step(call: Call, base: string, w: number, token: string) {
    let family = this.current.get(w);
    if (!family) {
      family = await startFamily(call, base, this.client, token);
      if (!family) return;
      this.all.push(family);
      this.current.set(w, family);
    }
    // A rotation refused or cut off: the worker's next step starts a new family.
    if (!(await rotate(call, base, this.client, family)))
      this.current.delete(w);
  }
}

/**
 * After a fault: the newest token of a family whose every request was answered is still
 * live; every rotated token and the code that started the family are refused, and
 * presenting them ends the whole family, so its newest token is refused too.
 */
export async function verifyFamilies(
  base: string,
  client: OidcClient,
  families: Family[],
): Promise<string[]> {
  const problems: string[] = [];
  const post = (path: string, fields: Record<string, string>) =>
    sendWith(base, 'POST', path, form(fields), asClient(client));
  const refresh = (token: string) =>
    post('/oauth/token', { grant_type: 'refresh_token', refresh_token: token });
  const refused = (r: Reply) =>
    r.status === 400 && r.body.error === 'invalid_grant'
      ? undefined
      : `${r.status} ${r.body.error ?? ''}`;

  for (const f of families) {
    if (f.settled && !f.replayed) {
      const r = await post('/oauth/introspect', { token: f.latest });
      if (r.body.active !== true)
        problems.push(
          `refresh token answered 200 is gone: ${r.status} active=${r.body.active}`,
        );
    }
    for (const token of f.rotated) {
      const wrong = refused(await refresh(token));
      if (wrong)
        problems.push(`rotated refresh token honoured twice: ${wrong}`);
    }
    const again = refused(
      await post('/oauth/token', {
        grant_type: 'authorization_code',
        code: f.code,
        redirect_uri: client.redirectUri,
      }),
    );
    if (again)
      problems.push(`authorization code ${f.code} redeemed twice: ${again}`);
    // A used token or code presented again ends the family: its newest token dies with it.
    f.replayed = true;
    const wrong = refused(await refresh(f.latest));
    if (wrong)
      problems.push(`family outlived the reuse of its token: ${wrong}`);
  }
  return problems;
}
