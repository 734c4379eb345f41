// Authorization code + PKCE (S256) entirely in the browser: the verifier stays in this tab's
// sessionStorage, the code is exchanged with a cross-origin call, and `me` says who signed in.
const config = await (await fetch('/config.json')).json();
const api = (path) => `${config.centerUrl}/api/v1/auth/${path}`;
const result = document.getElementById('result');
const loginButton = document.getElementById('login');
const logoutButton = document.getElementById('logout');

const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const randomString = (n) => base64url(crypto.getRandomValues(new Uint8Array(n)));

function show(text, isError = false) {
  result.textContent = text;
  result.className = isError ? 'error' : '';
}

async function startLogin() {
  const verifier = randomString(32); // 43 characters of [A-Za-z0-9-_]
  const state = randomString(16);
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  sessionStorage.setItem('pkce', JSON.stringify({ verifier, state }));
  const url = new URL(`${config.centerUrl}/authorize`);
  url.search = new URLSearchParams({
    client_id: config.clientId, redirect_uri: config.redirectUri, state,
    code_challenge: challenge, code_challenge_method: 'S256',
  }).toString();
  location.assign(url.href);
}

async function call(path, { body, token } = {}) {
  const headers = {};
  if (body) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(api(path), { method: body ? 'POST' : 'GET', headers, body: body && JSON.stringify(body) });
  return res.json();
}

/** Back from the center with ?code=… or ?error=…: finish the sign-in, then clean the address. */
async function finishLogin(params) {
  const pending = JSON.parse(sessionStorage.getItem('pkce') ?? 'null');
  sessionStorage.removeItem('pkce');
  history.replaceState(null, '', config.redirectUri);
  if (!pending || pending.state !== params.get('state')) return show('登录请求已失效（state 不匹配），请重新登录。', true);
  if (params.get('error')) return show(`登录已取消（${params.get('error')}）。`, true);
  const exchanged = await call('exchange', {
    body: { client_id: config.clientId, code: params.get('code'), code_verifier: pending.verifier, redirect_uri: config.redirectUri },
  });
  if (!exchanged.ok) return show(`换取令牌失败：${exchanged.msg}`, true);
  sessionStorage.setItem('token', exchanged.access_token);
}

async function render() {
  const token = sessionStorage.getItem('token');
  loginButton.hidden = !!token;
  logoutButton.hidden = !token;
  if (!token) {
    if (!result.classList.contains('error')) show('你还没有登录。');
    return;
  }
  const me = await call('me', { token });
  if (!me.ok) {
    sessionStorage.removeItem('token');
    show(`登录已失效：${me.msg}`, true);
    loginButton.hidden = false;
    logoutButton.hidden = true;
    return;
  }
  show(`signed in as ${me.data.username}`);
}

loginButton.addEventListener('click', () => void startLogin());
logoutButton.addEventListener('click', async () => {
  const token = sessionStorage.getItem('token');
  sessionStorage.removeItem('token');
  if (token) await call('logout', { body: {}, token }).catch(() => undefined);
  show('已退出登录。');
  await render();
});

const params = new URLSearchParams(location.search);
try {
  if (params.has('code') || params.has('error')) await finishLogin(params);
  await render();
} catch (err) {
  show(`出错了：${err.message}`, true);
}
