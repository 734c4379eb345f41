import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../helpers/app.js';
import {
  listeningCenter,
  type ListeningCenter,
} from '../helpers/upstream/http-browser.js';
import {
  addProvider,
  CookieJar,
  signInThrough,
  throughProvider,
} from '../helpers/upstream/flow.js';
import {
  startOidcForger,
  type OidcForger,
} from '../helpers/upstream/oidc-token-forger.js';

/**
 * How the center authenticates at an OpenID provider's token endpoint (docs/upstream.md): as the
 * provider's discovery says, Basic first, or as the administrator chose; a refusal's reason is
 * in the audit trail.
 */
let center: ListeningCenter;
let admin: TestUser;
let forger: OidcForger;

beforeAll(async () => {
  [center, forger] = await Promise.all([listeningCenter(), startOidcForger()]);
  admin = await center.admin();
});
afterAll(async () => {
  await forger?.close();
  await center?.close();
});

const fields = (id: string, extra: Record<string, string> = {}) => ({
  id,
  type: 'oidc',
  name: id,
  client_id: forger.clientId,
  client_secret: forger.clientSecret,
  issuer: forger.issuer,
  ...extra,
});

describe('client authentication at an upstream token endpoint', () => {
  it('uses client_secret_basic when discovery names only it', async () => {
    forger.tokenAuth = 'client_secret_basic';
    await addProvider(center, admin, fields('basic-only'));
    forger.signInAs({ id: 'sub-basic', preferred_username: 'basic_user' });
    const done = await signInThrough(center, 'basic-only');
    expect(done.status).toBe(200);
    expect(done.body.user).toMatchObject({ username: 'basic_user' });
  });

  it('uses client_secret_basic when discovery names no method (its default)', async () => {
    forger.tokenAuth = 'unsaid';
    await addProvider(center, admin, fields('unsaid'));
    forger.signInAs({ id: 'sub-unsaid', preferred_username: 'unsaid_user' });
    expect((await signInThrough(center, 'unsaid')).status).toBe(200);
  });

  it("uses client_secret_post when discovery names only it, and the administrator's choice wins", async () => {
    forger.tokenAuth = 'client_secret_post';
    await addProvider(center, admin, fields('post-only'));
    forger.signInAs({ id: 'sub-post', preferred_username: 'post_user' });
    expect((await signInThrough(center, 'post-only')).status).toBe(200);

    // Chosen against what the provider takes: refused, and the audit trail says why.
    await addProvider(
      center,
      admin,
      fields('forced-basic', {
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    );
    const page = await throughProvider(center, 'forced-basic', new CookieJar());
    expect(page).toMatchObject({ status: 400, result: 'error' });
    const audit = await center.get(
      '/api/v1/auth/admin/audit?action=login.failure',
      admin.token,
    );
    const entry = (
      audit.json().data.entries as Array<{ detail: Record<string, string> }>
    ).find((e) => e.detail.method === 'upstream:forced-basic');
    expect(entry?.detail.error).toMatch(/invalid_client/);
  });

  it('shows the choice and refuses an unknown method', async () => {
    const listed = await center.get(
      '/api/v1/auth/admin/providers',
      admin.token,
    );
    const views = listed.json().data.providers as Array<{
      id: string;
      token_endpoint_auth_method: string | null;
    }>;
    expect(
      views.find((p) => p.id === 'forced-basic')?.token_endpoint_auth_method,
    ).toBe('client_secret_basic');
    expect(
      views.find((p) => p.id === 'basic-only')?.token_endpoint_auth_method,
    ).toBeNull();
    const bad = await center.post(
      '/api/v1/auth/admin/providers',
      fields('bad-method', { token_endpoint_auth_method: 'private_key_jwt' }),
      admin.token,
    );
    expect(bad.statusCode).toBe(400);
  });
});
