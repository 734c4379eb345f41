/**
 * A small OpenID provider whose ID tokens can be made wrong on purpose, to show what the center
 * refuses (OpenID Connect Core §3.1.3.7): discovery, a JWKS with one RS256 key (`kid` "k1"),
 * code + PKCE at /authorize, and a token endpoint (client_secret_post unless told otherwise) whose `id_token` is
 * signed as `idToken` says — genuinely, with a foreign key under the same `kid`, unsigned
 * (`alg: none`), or carrying a wrong `nonce`, `aud` or `iss`, or already expired.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import {
  json,
  redirect,
  s256,
  StandIn,
  withQuery,
  type Person,
} from './stand-in.js';

export type IdTokenMode =
  | 'genuine'
  | 'foreignKey'
  | 'none'
  | 'wrongNonce'
  | 'wrongAud'
  | 'wrongIss'
  | 'expired';

export interface ForgerPerson extends Person {
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
}

export interface OidcForger extends StandIn {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** How the next ID token is made. */
  idToken: IdTokenMode;
  /**
   * The one client authentication the token endpoint takes, as discovery says; `unsaid`: discovery
   * names none (which means client_secret_basic) and the endpoint takes Basic.
   */
  tokenAuth: 'client_secret_post' | 'client_secret_basic' | 'unsaid';
}

const KID = 'k1';

/** `id:secret` of a Basic header, each part form-decoded as RFC 6749 §2.3.1 has them encoded. */
function basicCredentials(header: string | undefined): string | undefined {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!m) return undefined;
  const [id = '', secret = ''] = Buffer.from(m[1]!, 'base64')
    .toString('utf8')
    .split(':');
  const decode = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
  return `${decode(id)}:${decode(secret)}`;
}

export async function startOidcForger(): Promise<OidcForger> {
  const genuine = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256');
  const nonces = new Map<string, string>();
  const clientId = 'forger-client';
  const clientSecret = 'forger-client-secret-0123456789abcdefghij';

  const idTokenFor = async (
    person: ForgerPerson,
    nonce: string,
  ): Promise<string> => {
    const mode = forger.idToken;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: person.id,
      nonce: mode === 'wrongNonce' ? 'another-nonce' : nonce,
      ...(person.preferred_username && {
        preferred_username: person.preferred_username,
      }),
      ...(person.email && {
        email: person.email,
        email_verified: person.email_verified === true,
      }),
    };
    if (mode === 'none') {
      const part = (v: unknown) =>
        Buffer.from(JSON.stringify(v)).toString('base64url');
      return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claims, iss: forger.issuer, aud: clientId, iat: now, exp: now + 300 })}.`;
    }
    const key: CryptoKey =
      mode === 'foreignKey' ? foreign.privateKey : genuine.privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
      .setIssuer(
        mode === 'wrongIss' ? 'https://elsewhere.example' : forger.issuer,
      )
      .setAudience(mode === 'wrongAud' ? 'another-client' : clientId)
      .setIssuedAt(mode === 'expired' ? now - 7200 : now)
      .setExpirationTime(mode === 'expired' ? now - 3600 : now + 300)
      .sign(key);
  };

  const s = new StandIn({
    'GET /.well-known/openid-configuration': (_req, res) =>
      json(res, 200, {
        issuer: forger.issuer,
        authorization_endpoint: `${forger.issuer}/authorize`,
        token_endpoint: `${forger.issuer}/token`,
        jwks_uri: `${forger.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        ...(forger.tokenAuth !== 'unsaid' && {
          token_endpoint_auth_methods_supported: [forger.tokenAuth],
        }),
      }),
    'GET /jwks': async (_req, res) =>
      json(res, 200, {
        keys: [
          {
            ...(await exportJWK(genuine.publicKey)),
            kid: KID,
            alg: 'RS256',
            use: 'sig',
          },
        ],
      }),
    'GET /authorize': (req, res) => {
      const q = req.url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== clientId || q.get('response_type') !== 'code')
        return json(res, 400, { error: 'invalid_request' });
      const code = s.issueCode(
        clientId,
        redirectUri,
        q.get('scope') ?? '',
        q.get('code_challenge') ?? undefined,
      );
      nonces.set(code, q.get('nonce') ?? '');
      redirect(
        res,
        withQuery(redirectUri, { code, state: q.get('state') ?? undefined }),
      );
    },
    'POST /token': async (req, res) => {
      const f = req.form;
      const authenticated =
        forger.tokenAuth === 'client_secret_post'
          ? f.get('client_id') === clientId &&
            f.get('client_secret') === clientSecret &&
            req.headers.authorization === undefined
          : basicCredentials(req.headers.authorization) ===
              `${clientId}:${clientSecret}` && !f.has('client_secret');
      if (!authenticated)
        return json(res, 401, {
          error: 'invalid_client',
          error_description: `client authentication must be ${forger.tokenAuth === 'client_secret_post' ? 'client_secret_post' : 'client_secret_basic'}`,
        });
      const code = f.get('code') ?? '';
      const nonce = nonces.get(code) ?? '';
      const issued = s.takeCode(code);
      if (!issued || issued.redirectUri !== f.get('redirect_uri'))
        return json(res, 400, { error: 'invalid_grant' });
      if (
        issued.challenge &&
        s256(f.get('code_verifier') ?? '') !== issued.challenge
      )
        return json(res, 400, { error: 'invalid_grant' });
      json(res, 200, {
        token_type: 'Bearer',
        access_token: s.issueToken(issued.person, issued.scope),
        expires_in: 300,
        id_token: await idTokenFor(issued.person as ForgerPerson, nonce),
      });
    },
  });
  const forger = Object.assign(s, {
    issuer: '',
    clientId,
    clientSecret,
    idToken: 'genuine' as IdTokenMode,
    tokenAuth: 'client_secret_post',
  }) as OidcForger;
  await s.start();
  forger.issuer = s.base;
  return forger;
}
