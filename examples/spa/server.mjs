#!/usr/bin/env node
// Serves the single-page example (a public client: no secret, PKCE S256 in the browser).
// The page itself talks to the account center through CORS; this server only hands out
// the static files and the page's settings. Node 20+, no dependencies.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const CENTER_URL = (process.env.CENTER_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const CLIENT_ID = process.env.CLIENT_ID;
const HOST = process.env.HOST ?? '127.0.0.1';
const PORT = Number(process.env.PORT ?? 5000);
const APP_URL = (process.env.APP_URL ?? `http://${HOST}:${PORT}`).replace(/\/$/, '');

if (!CLIENT_ID) {
  console.error(`Set CLIENT_ID (create a public app with redirect URI ${APP_URL}/ in the developer console)`);
  process.exit(1);
}

const file = (name) => readFileSync(new URL(`./public/${name}`, import.meta.url));
const files = {
  '/': ['text/html; charset=utf-8', file('index.html')],
  '/app.js': ['text/javascript; charset=utf-8', file('app.js')],
  '/config.json': ['application/json', Buffer.from(JSON.stringify({ centerUrl: CENTER_URL, clientId: CLIENT_ID, redirectUri: `${APP_URL}/` }))],
};

const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', APP_URL).pathname;
  const hit = req.method === 'GET' ? files[path] : undefined;
  if (!hit) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    return res.end('not found');
  }
  res.writeHead(200, {
    'content-type': hit[0],
    'cache-control': 'no-cache',
    // The page may call only the account center; the code in the address never leaks onward.
    'content-security-policy': `default-src 'self'; connect-src 'self' ${CENTER_URL}; style-src 'self' 'unsafe-inline'; base-uri 'none'`,
    'referrer-policy': 'no-referrer',
  });
  res.end(hit[1]);
});

server.listen(PORT, HOST, () => console.log(`spa example listening on ${APP_URL} (redirect URI ${APP_URL}/)`));
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));
