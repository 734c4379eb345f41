// Asymmetric JWT sign and verify per second, for the OIDC signing algorithms (RS256 with a
// 2048-bit key, ES256, EdDSA/Ed25519): jose, fast-jwt's synchronous signer, the service's own
// signer (node:crypto on the thread pool, src/platform/jwt/jwt.ts) and node:crypto directly on
// the same key and signing input, so the gap between each library and the raw primitive is visible.
// Run: npm run build && node bench/jwt-sign.mjs [milliseconds per case]
// On this 2-core machine the thread pool lets WebCrypto and the service's signer use the second
// core: compare CPU µs (every thread) and event-loop µs (the main thread alone) too.
import { createPrivateKey, createPublicKey, sign as cryptoSign, verify as cryptoVerify, randomBytes } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import { readFileSync } from 'node:fs';
import { SignJWT, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { jwtSigner } from '../dist/platform/jwt/jwt.js';

const ms = Number(process.argv[2] ?? 1500);
const now = Math.floor(Date.now() / 1000);
// Shaped like our access tokens (RFC 9068).
const claims = {
  iss: 'http://127.0.0.1:3000', sub: '123', aud: 'bench-oidc', client_id: 'bench-oidc', scope: 'openid profile email',
  jti: `${Date.now().toString(36)}.${randomBytes(16).toString('base64url')}`, iat: now, exp: now + 3600, sid: randomBytes(16).toString('base64url'),
};

// node:crypto's parameters for each JWS alg: digest name and, for ECDSA, JOSE's raw r||s form.
const RAW = {
  RS256: { digest: 'sha256', opts: {} },
  ES256: { digest: 'sha256', opts: { dsaEncoding: 'ieee-p1363' } },
  EdDSA: { digest: null, opts: {} },
};

/** Nanoseconds the main thread (the event loop) has run on a CPU, from the scheduler's own count. */
const eventLoopNs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);

/**
 * Calls fn for about `ms` milliseconds, 32 calls at a time (a server has many requests in
 * flight, and WebCrypto runs its jobs on the libuv thread pool); returns operations per second,
 * the process's CPU time per operation (every thread counted) and the event loop's share.
 */
async function rate(fn) {
  for (let i = 0; i < 200; i++) await fn(i);
  let n = 0;
  const cpu = process.cpuUsage();
  const loop = eventLoopNs();
  const start = process.hrtime.bigint();
  const end = start + BigInt(ms) * 1_000_000n;
  let t = start;
  while (t < end) {
    await Promise.all(Array.from({ length: 32 }, () => fn(n++)));
    t = process.hrtime.bigint();
  }
  const used = process.cpuUsage(cpu);
  const loopUs = (eventLoopNs() - loop) / 1000;
  return { perSec: Math.round(n / (Number(t - start) / 1e9)), cpuUs: +((used.user + used.system) / n).toFixed(1), loopUs: +(loopUs / n).toFixed(1) };
}

const rows = [];
for (const alg of ['RS256', 'ES256', 'EdDSA']) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' && { modulusLength: 2048 }), ...(alg === 'EdDSA' && { crv: 'Ed25519' }) });
  // The same key as KeyObjects for node:crypto.
  const priv = createPrivateKey({ key: await exportJWK(privateKey), format: 'jwk' });
  const pub = createPublicKey({ key: await exportJWK(publicKey), format: 'jwk' });
  const header = { alg, kid: 'k1', typ: 'at+jwt' };
  const tokens = await Promise.all(Array.from({ length: 100 }, (_, i) => new SignJWT({ ...claims, sub: String(i) }).setProtectedHeader(header).sign(privateKey)));
  const { digest, opts } = RAW[alg];
  const input = Buffer.from(tokens[0].slice(0, tokens[0].lastIndexOf('.')));
  const rawSignOnce = () => cryptoSign(digest, input, { key: priv, ...opts });
  const rawSig = rawSignOnce();

  // The whole job of each side: JSON, base64url and the signature.
  const joseSign = await rate((i) => new SignJWT({ ...claims, sub: String(i) }).setProtectedHeader(header).sign(privateKey));
  const joseVerify = await rate((i) => jwtVerify(tokens[i % tokens.length], publicKey, { algorithms: [alg], typ: 'at+jwt' }));
  const rawSign = await rate((i) => {
    const h = Buffer.from(JSON.stringify(header)).toString('base64url');
    const p = Buffer.from(JSON.stringify({ ...claims, sub: String(i) })).toString('base64url');
    return `${h}.${p}.${cryptoSign(digest, Buffer.from(`${h}.${p}`), { key: priv, ...opts }).toString('base64url')}`;
  });
  const rawVerify = await rate((i) => {
    const t = tokens[i % tokens.length];
    const dot = t.lastIndexOf('.');
    if (!cryptoVerify(digest, Buffer.from(t.slice(0, dot)), { key: pub, ...opts }, Buffer.from(t.slice(dot + 1), 'base64url'))) throw new Error('bad signature');
    return JSON.parse(Buffer.from(t.slice(t.indexOf('.') + 1, dot), 'base64url').toString());
  });
  // jose with node:crypto KeyObjects instead of WebCrypto CryptoKeys.
  const joseKoSign = await rate((i) => new SignJWT({ ...claims, sub: String(i) }).setProtectedHeader(header).sign(priv));
  const joseKoVerify = await rate((i) => jwtVerify(tokens[i % tokens.length], pub, { algorithms: [alg], typ: 'at+jwt' }));
  // fast-jwt's synchronous signer over node:crypto, built once per key and header.
  const fastSigner = createSigner({ key: priv.export({ format: 'pem', type: 'pkcs8' }), algorithm: alg, kid: 'k1', typ: 'at+jwt' });
  const fastSign = await rate((i) => fastSigner({ ...claims, sub: String(i) }));
  // The service's signer: the same compact JWS, the signature made on the thread pool.
  const ownSigner = jwtSigner({ alg, kid: 'k1', privateKey: priv }, 'at+jwt');
  const ownSign = await rate((i) => ownSigner({ ...claims, sub: String(i) }));
  // The primitive alone, on a fixed input.
  const primSign = await rate(rawSignOnce);
  const primVerify = await rate(() => cryptoVerify(digest, input, { key: pub, ...opts }, rawSig));
  const row = (what, signs, verifies) => ({
    alg, what, 'signs/s': signs.perSec, 'CPU µs/sign': signs.cpuUs, 'event loop µs/sign': signs.loopUs,
    'verifies/s': verifies.perSec, 'CPU µs/verify': verifies.cpuUs,
  });
  rows.push(row('jose SignJWT / jwtVerify, CryptoKey', joseSign, joseVerify));
  rows.push(row('jose SignJWT / jwtVerify, KeyObject', joseKoSign, joseKoVerify));
  rows.push(row('node:crypto JWT by hand', rawSign, rawVerify));
  rows.push(row('fast-jwt createSigner (sign only)', fastSign, rawVerify));
  rows.push(row('service: node:crypto on the thread pool (sign only)', ownSign, rawVerify));
  rows.push(row('node:crypto sign/verify only', primSign, primVerify));
}
console.table(rows);
