// HS256 micro-benchmark on a token shaped like the service's own: verify with fast-jwt, jose
// and a hand-rolled node:crypto HMAC check; sign with fast-jwt and the service's signer
// (dist/platform/jwt/jwt.js: `npm run build` first). Run: node bench/jwt.mjs [iterations]
import { createHmac, randomBytes } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { jwtVerify } from 'jose';
import { hmacJwtKey, jwtSigner } from '../dist/platform/jwt/jwt.js';

const iterations = Number(process.argv[2] ?? 200_000);
const secret = randomBytes(48).toString('base64url');
const key = new TextEncoder().encode(secret);
const now = Math.floor(Date.now() / 1000);
const claims = { sub: 'player_000123', uid: 123, roles: ['player'], app: 'account-center', iat: now, exp: now + 604800, jti: `${Date.now().toString(36)}.${randomBytes(16).toString('base64url')}` };
const sign = createSigner({ key: secret, algorithm: 'HS256', noTimestamp: true });
// A pool of distinct tokens, so caches see what they would see with many users.
const tokens = Array.from({ length: 1000 }, (_, i) => sign({ ...claims, uid: i, jti: `${i}.${randomBytes(16).toString('base64url')}` }));

const fastNoCache = createVerifier({ key: secret, algorithms: ['HS256'] });
const fastCache = createVerifier({ key: secret, algorithms: ['HS256'], cache: 1000 });
const hmacKey = Buffer.from(secret);
function manualVerify(token) {
  const a = token.indexOf('.');
  const b = token.indexOf('.', a + 1);
  const mac = createHmac('sha256', hmacKey).update(token.slice(0, b)).digest('base64url');
  if (mac !== token.slice(b + 1)) throw new Error('bad signature');
  const header = JSON.parse(Buffer.from(token.slice(0, a), 'base64url').toString());
  if (header.alg !== 'HS256') throw new Error('bad alg');
  return JSON.parse(Buffer.from(token.slice(a + 1, b), 'base64url').toString());
}

async function time(name, fn, isAsync = false) {
  for (let i = 0; i < 20_000; i++) isAsync ? await fn(tokens[i % tokens.length]) : fn(tokens[i % tokens.length]);
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) isAsync ? await fn(tokens[i % tokens.length]) : fn(tokens[i % tokens.length]);
  const ns = Number(process.hrtime.bigint() - start);
  const perSec = Math.round(iterations / (ns / 1e9));
  return { name, 'calls/s': perSec, 'µs/call': +(ns / iterations / 1000).toFixed(2) };
}

const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
const rows = [];
for (let round = 0; round < 2; round++) {
  rows.push(await time('fast-jwt createVerifier (no cache)', fastNoCache));
  rows.push(await time('fast-jwt createVerifier (cache 1000)', fastCache));
  rows.push(await time('jose jwtVerify (Uint8Array key)', (t) => jwtVerify(t, key, { algorithms: ['HS256'] }), true));
  rows.push(await time('jose jwtVerify (CryptoKey imported once)', (t) => jwtVerify(t, cryptoKey, { algorithms: ['HS256'] }), true));
  rows.push(await time('node:crypto createHmac (hand-rolled)', manualVerify));
}
// Signing: each call gets fresh claims, as each refresh does.
const fastSign = createSigner({ key: secret, algorithm: 'HS256' });
const ownSign = jwtSigner(hmacJwtKey(secret));
if (fastSign({ ...claims }) !== ownSign(claims)) throw new Error('the two signers disagree');
for (let round = 0; round < 2; round++) {
  rows.push(await time('sign: fast-jwt createSigner', (t) => fastSign({ ...claims, jti: t.slice(-22) })));
  rows.push(await time('sign: jwtSigner (node:crypto HMAC)', (t) => ownSign({ ...claims, jti: t.slice(-22) })));
}
console.table(rows);
