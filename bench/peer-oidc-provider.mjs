// The peer of the OpenID Connect comparison: panva's oidc-provider, configured as close to our
// provider as it allows, in its own process (started by bench/lib/oidc-peer.mjs like the baseline).
// Env: PORT, HOST, PEER_ALG (RS256 | ES256 | EdDSA), PEER_USERS, PEER_CLIENT_ID, PEER_CLIENT_SECRET,
// PEER_REDIRECT_URI.
//
// Token formats, from its source (lib/models/formats/jwt.js, lib/actions/userinfo.js,
// lib/shared/reject_structured_tokens.js):
// - its JWT access tokens must carry an audience, and its userinfo endpoint refuses any access
//   token with an audience ("only usable at the userinfo_endpoint ... use an opaque format"), so
//   userinfo gets opaque access tokens;
// - its introspection endpoint refuses structured (JWT) tokens, so it gets opaque ones too;
// - the token endpoint (authorization_code and refresh_token) issues JWT access tokens
//   (resourceIndicators, accessTokenFormat 'jwt', audience = the client id as in ours) plus
//   an ID token, all signed with a key of PEER_ALG, as ours does.
// An opaque token is a lookup in its in-memory adapter where ours verifies a signature and reads
// the database: both choices favour the peer.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
// Its own in-memory adapter, but over a bigger store: the default one keeps ~1,000 entries
// (an LRU), fewer than the codes and tokens one timed run needs.
import MemoryAdapter from 'oidc-provider/lib/adapters/memory_adapter.js';
import LRU from 'oidc-provider/lib/helpers/lru.js';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const alg = process.env.PEER_ALG ?? 'RS256';
const userCount = Number(process.env.PEER_USERS ?? 1000);
const clientId = process.env.PEER_CLIENT_ID ?? 'bench-oidc';
const clientSecret = process.env.PEER_CLIENT_SECRET ?? 'bench-secret';
const redirectUri =
  process.env.PEER_REDIRECT_URI ?? 'https://spa.bench.test/callback';
const SCOPE = 'openid profile email';
// The resource indicator under which access tokens are JWTs; its audience is the client id,
// as in our access tokens.
const RESOURCE = 'https://api.bench.test/';

/** Key of the same type as ours (src/features/oidc/keys.ts): RSA 2048, P-256 or Ed25519. */
async function signingJwk() {
  const opts = {
    extractable: true,
    ...(alg === 'RS256' && { modulusLength: 2048 }),
    ...(alg === 'EdDSA' && { crv: 'Ed25519' }),
  };
  const { privateKey } = await generateKeyPair(alg, opts);
  return {
    ...(await exportJWK(privateKey)),
    kid: `bench-${alg}`,
    alg,
    use: 'sig',
  };
}

// N users shaped like bench/lib/seed.mjs rows; sub is the numeric id as a string, as ours.
const accounts = new Map();
for (let i = 1; i <= userCount; i++) {
  const username = `bench_${i}`;
  const claims = {
    sub: String(i),
    name: username,
    preferred_username: username,
    email: `${username}@bench.test`,
    email_verified: true,
  };
  accounts.set(String(i), { accountId: String(i), claims: async () => claims });
}

const store = new LRU({ maxSize: 20_000_000 });
const provider = new Provider(`http://${host}:${port}`, {
  adapter: (name) => new MemoryAdapter(name, store),
  jwks: { keys: [await signingJwk()] },
  findAccount: (_ctx, id) => accounts.get(id),
  claims: {
    openid: ['sub'],
    profile: ['name', 'preferred_username'],
    email: ['email', 'email_verified'],
  },
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      response_types: ['code'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: alg,
    },
  ],
  clientDefaults: { id_token_signed_response_alg: alg },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  // Our lifetimes (docs/oidc.md): access and ID tokens 1 h, refresh tokens 30 days rotated on every use.
  ttl: {
    AccessToken: 3600,
    AuthorizationCode: 600,
    IdToken: 3600,
    RefreshToken: 30 * 86400,
    Grant: 30 * 86400,
    Session: 86400,
    Interaction: 600,
  },
  rotateRefreshToken: true,
  // Ours issues a refresh token whenever the client has the grant, without offline_access.
  issueRefreshToken: async (_ctx, client) =>
    client.grantTypeAllowed('refresh_token'),
  features: {
    devInteractions: { enabled: false },
    introspection: { enabled: true },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: async () => RESOURCE,
      useGrantedResource: async () => true,
      getResourceServerInfo: async () => ({
        scope: SCOPE,
        audience: clientId,
        accessTokenFormat: 'jwt',
        accessTokenTTL: 3600,
        jwt: { sign: { alg } },
      }),
    },
  },
});
provider.proxy = false;

/**
 * Bench-only material, made the way its interaction would leave it but without its pages:
 * one Grant per code or token family (ours starts a refresh family per code exchange).
 */
async function grantFor(uid, withResource) {
  const grant = new provider.Grant({ accountId: String(uid), clientId });
  grant.addOIDCScope(SCOPE);
  if (withResource) grant.addResourceScope(RESOURCE, SCOPE);
  return grant.save();
}

async function mint({ kind, users, n }) {
  const client = await provider.Client.find(clientId);
  const authTime = Math.floor(Date.now() / 1000);
  const out = [];
  for (let i = 0; i < n; i++) {
    const uid = String(users[i % users.length]);
    if (kind === 'codes') {
      const grantId = await grantFor(uid, true);
      const code = new provider.AuthorizationCode({
        accountId: uid,
        client,
        grantId,
        redirectUri,
        scope: SCOPE,
        resource: RESOURCE,
        authTime,
        nonce: `n-${i}`,
      });
      out.push(await code.save());
    } else if (kind === 'access') {
      // Opaque: the only kind its userinfo and introspection endpoints accept.
      const grantId = await grantFor(uid, false);
      out.push(
        await new provider.AccessToken({
          accountId: uid,
          client,
          grantId,
          gty: 'authorization_code',
          scope: SCOPE,
        }).save(),
      );
    } else if (kind === 'refresh') {
      // As its code exchange leaves it: bound to the resource, so a rotation issues a JWT access token.
      const grantId = await grantFor(uid, true);
      out.push(
        await new provider.RefreshToken({
          accountId: uid,
          client,
          grantId,
          gty: 'authorization_code',
          scope: SCOPE,
          resource: RESOURCE,
          authTime,
          rotations: 0,
        }).save(),
      );
    } else throw new Error(`unknown kind ${kind}`);
  }
  return out;
}

const handle = provider.callback();
const server = createServer((req, res) => {
  if (req.url === '/healthz') return void res.end('{"ok":true}');
  if (req.method !== 'POST' || req.url !== '/bench/mint')
    return handle(req, res);
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    mint(JSON.parse(body)).then(
      (values) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(values));
      },
      (err) => {
        res.statusCode = 500;
        res.end(String(err?.stack ?? err));
      },
    );
  });
});
server.keepAliveTimeout = 72_000; // Fastify's default, as ours has
server.listen(port, host);
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () => server.close(() => process.exit(0)));
