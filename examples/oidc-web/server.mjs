#!/usr/bin/env node
// A web app that signs people in with the account center over standard OpenID Connect,
// using the openid-client library: authorization code + PKCE + nonce, the ID token checked
// by the library, UserInfo, refresh-token rotation and RP-initiated logout. It shows the
// claims it received. Node 20+, one dependency (openid-client v6).
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';

const ISSUER = (process.env.ISSUER ?? process.env.CENTER_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const CLIENT_ID = process.env.CLIENT_ID;
const CLIENT_SECRET = process.env.CLIENT_SECRET; // absent: a public client (PKCE only)
const HOST = process.env.HOST ?? '127.0.0.1';
const PORT = Number(process.env.PORT ?? 4100);
const APP_URL = (process.env.APP_URL ?? `http://${HOST}:${PORT}`).replace(/\/$/, '');
const REDIRECT_URI = `${APP_URL}/callback`;
const POST_LOGOUT_URI = `${APP_URL}/logged-out`;
const SCOPE = process.env.SCOPE ?? 'openid profile email offline_access';

if (!CLIENT_ID) {
  console.error(`Set CLIENT_ID (and CLIENT_SECRET for a confidential app). Register redirect URI ${REDIRECT_URI} and post-logout URI ${POST_LOGOUT_URI}.`);
  process.exit(1);
}

// Everything the app needs is found from the issuer URL alone (OpenID Connect Discovery).
const config = await oidc.discovery(
  new URL(ISSUER),
  CLIENT_ID,
  undefined,
  CLIENT_SECRET ? oidc.ClientSecretBasic(CLIENT_SECRET) : oidc.None(),
  // Plain http is only for trying it out on one machine; use https for anything real.
  ISSUER.startsWith('http://') ? { execute: [oidc.allowInsecureRequests] } : undefined,
);

/** sid → { claims, userinfo, tokens }; pending sign-ins and sign-outs by their state. */
const sessions = new Map();
const pending = new Map();

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const cookie = (req, name) => (req.headers.cookie ?? '').split(/;\s*/).map((c) => c.split('=')).find(([k]) => k === name)?.[1];
const newId = () => randomBytes(32).toString('base64url');

function page(res, status, body, headers = {}) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'", ...headers,
  });
  res.end(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>OIDC 示例网站</title><style>body{font-family:system-ui,sans-serif;max-width:640px;margin:40px auto;padding:0 16px}pre{background:#f3f4f6;padding:12px;overflow:auto}a.button,button{display:inline-block;padding:8px 16px;margin-right:8px;background:#2563eb;color:#fff;border:0;border-radius:6px;text-decoration:none;font:inherit;cursor:pointer}</style>
</head><body><h1>OIDC 示例网站</h1>${body}</body></html>`);
}

async function login(_req, res) {
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  pending.set(state, { nonce, verifier, at: Date.now() });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI, scope: SCOPE, state, nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
  });
  res.writeHead(302, { location: url.href, 'set-cookie': `login_state=${state}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600` });
  res.end();
}

async function callback(req, res, url) {
  const state = cookie(req, 'login_state');
  const started = state && pending.get(state);
  if (!started) return page(res, 400, '<p>登录请求已失效，请<a href="/">重新登录</a>。</p>');
  pending.delete(state);
  let tokens;
  try {
    // The library checks state, iss, the code exchange with PKCE, the ID token's signature, nonce and audience.
    tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: started.verifier, expectedNonce: started.nonce, expectedState: state });
  } catch (err) {
    return page(res, 200, `<p id="result">登录未完成：${escape(err.error ?? err.message)}</p><p><a href="/">返回</a></p>`);
  }
  const claims = tokens.claims();
  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
  const sid = newId();
  sessions.set(sid, { claims, userinfo, tokens, refreshed: 0 });
  res.writeHead(303, { location: '/', 'set-cookie': [`sid=${sid}; Path=/; HttpOnly; SameSite=Lax`, 'login_state=; Path=/; Max-Age=0'] });
  res.end();
}

async function refresh(req, res) {
  const session = sessions.get(cookie(req, 'sid'));
  if (!session?.tokens.refresh_token) return page(res, 400, '<p>没有可用的刷新令牌。</p><p><a href="/">返回</a></p>');
  try {
    // Rotation: the old refresh token is dead from now on; keep the new one.
    const tokens = await oidc.refreshTokenGrant(config, session.tokens.refresh_token);
    session.tokens = { ...tokens, id_token: tokens.id_token ?? session.tokens.id_token };
    session.refreshed += 1;
  } catch (err) {
    return page(res, 200, `<p id="result">刷新失败：${escape(err.error ?? err.message)}（可能已在账号中心撤销授权）</p><p><a href="/login">重新登录</a></p>`);
  }
  res.writeHead(303, { location: '/' });
  res.end();
}

function logout(req, res) {
  const sid = cookie(req, 'sid');
  const session = sessions.get(sid);
  sessions.delete(sid);
  const state = oidc.randomState();
  pending.set(state, { logout: true, at: Date.now() });
  const params = { post_logout_redirect_uri: POST_LOGOUT_URI, state };
  if (session?.tokens.id_token) params.id_token_hint = session.tokens.id_token;
  else params.client_id = CLIENT_ID;
  // Signs the person out at the account center too, which then sends them back here.
  res.writeHead(302, { location: oidc.buildEndSessionUrl(config, params).href, 'set-cookie': 'sid=; Path=/; Max-Age=0' });
  res.end();
}

function loggedOut(_req, res, url) {
  const state = url.searchParams.get('state');
  const known = state !== null && pending.get(state)?.logout === true;
  if (known) pending.delete(state);
  return page(res, 200, `<p id="result">${known ? '已退出登录（应用与账号中心）。' : '已退出登录。'}</p><p><a class="button" href="/login" id="login">再次登录</a></p>`);
}

function home(req, res) {
  const session = sessions.get(cookie(req, 'sid'));
  if (!session) return page(res, 200, `<p>尚未登录。</p><p><a class="button" href="/login" id="login">使用账号中心登录</a></p>`);
  const { claims, userinfo, tokens, refreshed } = session;
  return page(res, 200, `<p id="result">signed in as ${escape(claims.preferred_username ?? claims.sub)}</p>
<h2>ID 令牌声明</h2><pre id="claims">${escape(JSON.stringify(claims, null, 2))}</pre>
<h2>UserInfo</h2><pre id="userinfo">${escape(JSON.stringify(userinfo, null, 2))}</pre>
<p id="token-info">访问令牌有效期 ${escape(tokens.expires_in ?? '?')} 秒；已刷新 <span id="refresh-count">${refreshed}</span> 次；刷新令牌：${tokens.refresh_token ? '有' : '无'}</p>
<form method="post" action="/refresh" style="display:inline"><button id="refresh">刷新令牌</button></form>
<a class="button" href="/logout" id="logout">退出登录</a>`);
}

const routes = { 'GET /': home, 'GET /login': login, 'GET /callback': callback, 'POST /refresh': refresh, 'GET /logout': logout, 'GET /logged-out': loggedOut };

createServer((req, res) => {
  const url = new URL(req.url ?? '/', APP_URL);
  const route = routes[`${req.method} ${url.pathname}`];
  if (!route) return page(res, 404, '<p>页面不存在。</p>');
  Promise.resolve(route(req, res, url)).catch((err) => {
    console.error(err);
    if (!res.headersSent) page(res, 500, '<p>出错了，请重试。</p>');
  });
}).listen(PORT, HOST, () => console.log(`oidc-web example listening on ${APP_URL} (issuer ${ISSUER})`));
