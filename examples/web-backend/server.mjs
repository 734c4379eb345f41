#!/usr/bin/env node
// A confidential client of the account center: a server-side web app that keeps its
// client_secret on the server, runs the authorization-code flow and checks who signed in
// by calling /me. Node 20+, no dependencies.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';

const CENTER_URL = (process.env.CENTER_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const CLIENT_ID = process.env.CLIENT_ID;
const CLIENT_SECRET = process.env.CLIENT_SECRET;
const HOST = process.env.HOST ?? '127.0.0.1';
const PORT = Number(process.env.PORT ?? 4000);
const APP_URL = (process.env.APP_URL ?? `http://${HOST}:${PORT}`).replace(/\/$/, '');
const REDIRECT_URI = `${APP_URL}/callback`;
const SCOPE = process.env.SCOPE ?? '';

if (!CLIENT_ID || !CLIENT_SECRET) {
  console.error('Set CLIENT_ID and CLIENT_SECRET (create the app in the developer console with redirect URI ' + REDIRECT_URI + ')');
  process.exit(1);
}

/** sid → { username, display_name } for signed-in visitors; state → expiry for pending sign-ins. */
const sessions = new Map();
const pendingStates = new Map();

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const cookies = (req) => Object.fromEntries((req.headers.cookie ?? '').split(/;\s*/).filter(Boolean).map((c) => {
  const i = c.indexOf('=');
  return [c.slice(0, i), decodeURIComponent(c.slice(i + 1))];
}));

function page(res, status, body, headers = {}) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'", ...headers,
  });
  res.end(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>示例网站</title><style>body{font-family:system-ui,sans-serif;max-width:520px;margin:40px auto;padding:0 16px}a.button,button{display:inline-block;padding:8px 16px;background:#2563eb;color:#fff;border:0;border-radius:6px;text-decoration:none;font:inherit;cursor:pointer}</style>
</head><body><h1>示例网站（服务端应用）</h1>${body}</body></html>`);
}

/** Calls the account center; resolves with the JSON body, which carries ok/msg either way. */
async function center(path, { body, token } = {}) {
  const headers = { accept: 'application/json' };
  if (body) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${CENTER_URL}/api/v1/auth/${path}`, { method: body ? 'POST' : 'GET', headers, body: body && JSON.stringify(body) });
  return res.json();
}

async function callback(req, res, url) {
  const state = url.searchParams.get('state') ?? '';
  const expected = cookies(req).login_state;
  const clearState = 'login_state=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0';
  // The state must be the one this browser started with, or someone else's code is being planted.
  if (!expected || expected !== state || !pendingStates.delete(state)) {
    return page(res, 400, '<p>登录请求已失效（state 不匹配），请<a href="/">重新登录</a>。</p>', { 'set-cookie': clearState });
  }
  const error = url.searchParams.get('error');
  if (error) return page(res, 200, `<p id="result">登录已取消（${escape(error)}）。</p><p><a href="/">返回</a></p>`, { 'set-cookie': clearState });

  const exchanged = await center('exchange', {
    body: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code: url.searchParams.get('code') ?? '', redirect_uri: REDIRECT_URI },
  });
  if (!exchanged.ok) return page(res, 502, `<p>换取令牌失败：${escape(exchanged.msg)}</p><p><a href="/">返回</a></p>`);
  // The token is signed with the center's secret: ask the center who it belongs to.
  const me = await center('me', { token: exchanged.access_token });
  if (!me.ok) return page(res, 502, `<p>获取用户信息失败：${escape(me.msg)}</p>`);

  const sid = randomBytes(32).toString('base64url');
  sessions.set(sid, { username: me.data.username, display_name: me.data.display_name, token: exchanged.access_token });
  res.writeHead(303, {
    location: '/',
    'set-cookie': [clearState, `sid=${sid}; Path=/; HttpOnly; SameSite=Lax`],
  });
  res.end();
}

function home(req, res) {
  const session = sessions.get(cookies(req).sid);
  if (session) {
    return page(res, 200, `<p id="result">signed in as <strong id="username">${escape(session.username)}</strong>（${escape(session.display_name)}）</p>
<form method="post" action="/logout"><button>退出登录</button></form>`);
  }
  page(res, 200, '<p>你还没有登录。</p><p><a class="button" id="login" href="/login">使用账号中心登录</a></p>');
}

function startLogin(res) {
  const state = randomBytes(24).toString('base64url');
  pendingStates.set(state, Date.now() + 10 * 60_000);
  for (const [s, until] of pendingStates) if (until < Date.now()) pendingStates.delete(s);
  const authorize = new URL(`${CENTER_URL}/authorize`);
  authorize.searchParams.set('client_id', CLIENT_ID);
  authorize.searchParams.set('redirect_uri', REDIRECT_URI);
  authorize.searchParams.set('state', state);
  if (SCOPE) authorize.searchParams.set('scope', SCOPE);
  res.writeHead(302, { location: authorize.href, 'set-cookie': `login_state=${state}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600` });
  res.end();
}

async function logout(req, res) {
  const sid = cookies(req).sid;
  const session = sessions.get(sid);
  sessions.delete(sid);
  if (session) await center('logout', { body: {}, token: session.token }).catch(() => undefined);
  res.writeHead(303, { location: '/', 'set-cookie': 'sid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0' });
  res.end();
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', APP_URL);
  const route = `${req.method} ${url.pathname}`;
  const handle = route === 'GET /' ? home(req, res)
    : route === 'GET /login' ? startLogin(res)
    : route === 'GET /callback' ? callback(req, res, url)
    : route === 'POST /logout' ? logout(req, res)
    : page(res, 404, '<p>页面不存在</p>');
  Promise.resolve(handle).catch((err) => {
    console.error(err);
    if (!res.headersSent) page(res, 500, '<p>服务暂时不可用</p>');
  });
});

server.listen(PORT, HOST, () => {
  console.log(`web-backend example listening on ${APP_URL} (redirect URI ${REDIRECT_URI})`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));
