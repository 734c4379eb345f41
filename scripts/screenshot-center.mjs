// The throw-away center of npm run screenshots: a fresh SQLite database, providers and an
// administrator made with the real CLI, the service started from dist/, and its JSON API.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(fileURLToPath(import.meta.url), '..', '..');
const BIN = join(root, 'bin', 'account-center.js');
export const ADMIN = {
  username: 'admin_demo',
  password: 'correct horse battery',
  email: 'admin@example.com',
};

/** The providers the sign-in page shows; the ids and secrets are placeholders, never called. */
const PROVIDERS = [
  [
    '--id',
    'steam',
    '--type',
    'steam',
    '--name',
    'Steam',
    '--api-key',
    'DEMO0000000000000000000000000000',
  ],
  [
    '--id',
    'discord',
    '--type',
    'discord',
    '--name',
    'Discord',
    '--client-id',
    '1100000000000000001',
    '--client-secret',
    'demo-secret',
  ],
  [
    '--id',
    'qq',
    '--type',
    'qq',
    '--name',
    'QQ',
    '--client-id',
    '101000001',
    '--client-secret',
    'demo-secret',
  ],
  [
    '--id',
    'github',
    '--type',
    'github',
    '--name',
    'GitHub',
    '--client-id',
    'Iv1.demo00000000',
    '--client-secret',
    'demo-secret',
  ],
];

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        server.close(() => resolve(port));
      });
  });
}

/** `account-center <args>` with `env` and PATH only, so nothing of the caller's configuration leaks in. */
function cli(env, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (d) => {
      errors += d;
    });
    child.once('close', (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `account-center ${args.join(' ')}: exit ${code}\n${errors}`,
            ),
          ),
    );
  });
}

/** `serve` on a free port; resolves once /login answers. */
export async function startCenter(env) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BASE_URL: baseUrl,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let tries = 0; ; tries++) {
    const state = await Promise.race([
      exited.then(() => 'exited'),
      fetch(`${baseUrl}/login`).then(
        (r) => (r.ok ? 'up' : 'down'),
        () => 'down',
      ),
    ]);
    if (state === 'up') break;
    if (state === 'exited' || tries > 300)
      throw new Error('the center did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A fresh database with the demo providers and an administrator, made through the CLI. */
export async function prepare(dir) {
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'account-center.db')}`,
    JWT_SECRET: randomBytes(48).toString('base64'),
    LOG_LEVEL: 'warn',
    IP_RATE_LIMITS: 'off',
  };
  await cli(env, [
    'user',
    'create',
    '--username',
    ADMIN.username,
    '--password',
    ADMIN.password,
    '--email',
    ADMIN.email,
    '--roles',
    'player,admin',
  ]);
  for (const provider of PROVIDERS)
    await cli(env, ['provider', 'add', ...provider]);
  return env;
}

/** JSON call to the v1 API. */
export async function api(baseUrl, path, body, token) {
  const res = await fetch(`${baseUrl}/api/v1/auth/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (!answer.ok) throw new Error(`${path}: ${answer.msg}`);
  return answer.data ?? answer;
}
