import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { freePort } from '../helpers/net.js';
import { createApp } from '../helpers/oauth.js';
import { authorizeOverHttp } from '../helpers/oidc-client.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Apache httpd with mod_auth_openidc as a relying party of the center over real HTTP, guarding
 * a location with `Require claim roles:moderator` (docs/oidc.md, Roles): a moderator is let in,
 * a player is not. Skipped where Apache or the module is not installed, except in CI.
 */
const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';
const installed =
  existsSync(APACHE) && existsSync(join(MODULES, 'mod_auth_openidc.so'));
/** CI installs both (.ci/run): there a missing one is a failure, never a silent skip. */
const required = !!process.env.CI && process.env.CI !== 'false';

let t: TestApp;
let issuer: string;
let admin: TestUser;
let apache: ChildProcess | undefined;
let site: string;
let dir: string;

function apacheConfig(port: number, client: [string, string]): string {
  const load = (name: string, file: string) =>
    `LoadModule ${name}_module ${MODULES}/${file}`;
  return `ServerRoot ${dir}
ServerName 127.0.0.1
Listen 127.0.0.1:${port}
PidFile ${dir}/httpd.pid
DefaultRuntimeDir ${dir}
Mutex file:${dir} default
ErrorLog ${dir}/error.log
LogLevel warn auth_openidc:info
${load('mpm_event', 'mod_mpm_event.so')}
${load('authn_core', 'mod_authn_core.so')}
${load('authz_core', 'mod_authz_core.so')}
${load('authz_user', 'mod_authz_user.so')}
${load('auth_openidc', 'mod_auth_openidc.so')}
User www-data
Group www-data
DocumentRoot ${dir}/htdocs
OIDCProviderMetadataURL ${issuer}/.well-known/openid-configuration
OIDCClientID ${client[0]}
OIDCClientSecret ${client[1]}
OIDCProviderTokenEndpointAuth client_secret_basic
OIDCRedirectURI ${site}/oidc/callback
OIDCCryptoPassphrase apache-roles-test-passphrase-0123456789
OIDCScope "openid profile roles"
OIDCPKCEMethod S256
OIDCRemoteUserClaim preferred_username
<Location />
    AuthType openid-connect
    Require valid-user
</Location>
<Location /moderation>
    AuthType openid-connect
    Require claim roles:moderator
</Location>
`;
}

beforeAll(async () => {
  if (!installed && required)
    throw new Error(
      `Apache httpd with mod_auth_openidc not found (${APACHE}): apt-get install apache2 libapache2-mod-auth-openidc`,
    );
  if (!installed) return;
  const port = await freePort();
  issuer = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    BASE_URL: issuer,
    PORT: String(port),
    HOST: '127.0.0.1',
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  admin = await t.admin();
  await t.post(
    '/api/v1/auth/admin/roles',
    { name: 'moderator', display_name: '版主' },
    admin.token,
  );
  const apachePort = await freePort();
  site = `http://127.0.0.1:${apachePort}`;
  const rp = await createApp(t, admin, {
    display_name: 'Apache',
    redirect_uris: [`${site}/oidc/callback`],
  });
  dir = mkdtempSync(join(tmpdir(), 'apache-roles-'));
  // Apache's workers drop to www-data: they read the pages and the mutex files here.
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, 'htdocs', 'moderation'), { recursive: true });
  writeFileSync(join(dir, 'htdocs', 'moderation', 'queue.txt'), 'the queue\n');
  writeFileSync(
    join(dir, 'httpd.conf'),
    apacheConfig(apachePort, [rp.client_id, rp.client_secret!]),
  );
  apache = spawn(APACHE, ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], {
    stdio: 'ignore',
  });
  await waitFor('Apache to listen', 10_000, () =>
    new Browser().get(`${site}/`).then(
      () => true,
      () => false,
    ),
  );
});
afterAll(async () => {
  apache?.kill('SIGTERM');
  if (apache && apache.exitCode === null)
    await new Promise((done) => apache!.once('exit', done));
  if (dir) rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

/**
 * A browser's navigation to Apache, with the cookies Apache set so far. node:http, not fetch:
 * fetch always says `Sec-Fetch-Mode: cors`, which mod_auth_openidc answers with 401 instead of
 * sending the browser to sign in.
 */
class Browser {
  private readonly cookies = new Map<string, string>();

  get(url: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const req = httpGet(
        url,
        { headers: { accept: 'text/html', ...(cookie && { cookie }) } },
        (res) => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair] = line.split(';');
            const at = pair!.indexOf('=');
            this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
          }
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              location: res.headers.location,
              body,
            }),
          );
        },
      );
      req.on('error', reject);
    });
  }
}

/** A person's browser asking Apache for `path`: signs in at the center, then asks again. */
async function visit(person: TestUser, path: string): Promise<Answer> {
  const browser = new Browser();
  const first = await browser.get(`${site}${path}`);
  expect(first.status).toBe(302);
  const toCenter = new URL(first.location!);
  expect(toCenter.origin).toBe(issuer);
  const callback = await authorizeOverHttp(issuer, person.token, toCenter);
  expect(callback.origin).toBe(site);
  const back = await browser.get(callback.href);
  expect(back.status).toBe(302);
  return browser.get(new URL(back.location!, site).href);
}

describe.skipIf(!installed && !required)(
  'Apache mod_auth_openidc and the roles claim',
  () => {
    it('lets a moderator into /moderation', async () => {
      const moderator = await t.register();
      await t.post(
        '/api/v1/auth/admin/users/roles',
        { username: moderator.username, roles: ['player', 'moderator'] },
        admin.token,
      );
      const res = await visit(moderator, '/moderation/queue.txt');
      expect(res.status).toBe(200);
      expect(res.body).toBe('the queue\n');
    });

    it('refuses a player', async () => {
      const player = await t.register();
      // Signed in, but `Require claim` fails: Apache's authorization failure.
      const res = await visit(player, '/moderation/queue.txt');
      expect(res.status).toBe(401);
      expect(res.body).not.toContain('the queue');
    });
  },
);
