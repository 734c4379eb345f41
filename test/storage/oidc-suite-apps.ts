import { expect, it } from 'vitest';
import type { Storage } from '../../src/app/storage.js';
import { oidcUnique as unique } from './suite-helpers.js';

/** The OpenID Connect fields of registered apps. */
export function oidcAppsStorageSuite(storage: () => Storage): void {
  it('oidc: app client fields default by client type and update', async () => {
    const s = storage();
    const base = {
      ownerId: 1,
      displayName: 'A',
      homepage: 'https://a.example',
      scopes: ['profile'],
      redirectUris: ['https://a.example/cb'],
      corsOrigins: [],
      status: 'active',
    };
    const conf = await s.apps.create(
      {
        ...base,
        clientId: unique('c'),
        clientType: 'confidential',
        secretHash: 'x',
      },
      1,
    );
    expect(conf).toMatchObject({
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      postLogoutRedirectUris: [],
    });
    const pub = await s.apps.create(
      {
        ...base,
        clientId: unique('p'),
        clientType: 'public',
        secretHash: null,
      },
      1,
    );
    expect(pub.tokenEndpointAuthMethod).toBe('none');
    const custom = await s.apps.create(
      {
        ...base,
        clientId: unique('x'),
        clientType: 'confidential',
        secretHash: 'x',
        grantTypes: ['client_credentials'],
        tokenEndpointAuthMethod: 'client_secret_post',
        postLogoutRedirectUris: ['https://a.example/bye'],
      },
      1,
    );
    expect(await s.apps.findById(custom.clientId)).toEqual(custom);
    const updated = await s.apps.update(
      conf.clientId,
      {
        grantTypes: ['authorization_code'],
        tokenEndpointAuthMethod: 'client_secret_post',
        postLogoutRedirectUris: ['https://a.example/out'],
      },
      2,
    );
    expect(updated).toMatchObject({
      grantTypes: ['authorization_code'],
      tokenEndpointAuthMethod: 'client_secret_post',
      postLogoutRedirectUris: ['https://a.example/out'],
      displayName: 'A',
    });
  });
}
