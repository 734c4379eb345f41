// The peer's side: oidc-provider in its own process, and its bench-only mint route.
import { freePort, startProcess } from './proc.mjs';
import { REDIRECT_URI } from './targets.mjs';

/** Starts bench/peer-oidc-provider.mjs with our key type, user count and client credentials. */
export async function startPeer({
  alg,
  users,
  clientId,
  clientSecret,
  nodeFlags = [],
}) {
  return startProcess({
    name: `oidc-provider-${alg}`,
    args: ['bench/peer-oidc-provider.mjs'],
    port: await freePort(),
    nodeFlags,
    // NODE_ENV as the service gets it (bench/lib/setup.mjs serviceEnv).
    env: {
      NODE_ENV: 'production',
      PEER_ALG: alg,
      PEER_USERS: String(users),
      PEER_CLIENT_ID: clientId,
      PEER_CLIENT_SECRET: clientSecret,
      PEER_REDIRECT_URI: REDIRECT_URI,
    },
  });
}

/**
 * `n` codes (`codes`), opaque access tokens (`access`) or refresh tokens (`refresh`) for the
 * given users in turn, saved through the peer's own models; in batches, so no answer is huge.
 */
export async function peerMint(peer, kind, users, n) {
  const out = [];
  for (let from = 0; from < n; from += 5000) {
    const count = Math.min(5000, n - from);
    const batchUsers = Array.from(
      { length: Math.min(count, users.length) },
      (_, i) => users[(from + i) % users.length],
    );
    const res = await fetch(`${peer.url}/bench/mint`, {
      method: 'POST',
      body: JSON.stringify({ kind, users: batchUsers, n: count }),
    });
    if (res.status !== 200)
      throw new Error(
        `peer mint ${kind} answered ${res.status}: ${await res.text()}`,
      );
    out.push(...(await res.json()));
  }
  return out;
}

/** The endpoint paths a server publishes in its discovery document. */
export async function endpointPaths(server) {
  const res = await fetch(`${server.url}/.well-known/openid-configuration`);
  if (res.status !== 200)
    throw new Error(`${server.name}: discovery answered ${res.status}`);
  const d = await res.json();
  const path = (u) => {
    if (!u)
      throw new Error(`${server.name}: an endpoint is missing from discovery`);
    return new URL(u).pathname;
  };
  return {
    token: path(d.token_endpoint),
    userinfo: path(d.userinfo_endpoint),
    introspection: path(d.introspection_endpoint),
  };
}
