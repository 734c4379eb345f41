import { describe, expect, it } from 'vitest';
import { checkClientFields } from '../../src/features/apps/oidc-client-rules.js';
import { viaTable } from '../helpers/refusal.js';
import { SecretBox } from '../../src/platform/crypto/secret-box.js';

const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code';

describe('client fields (docs/api.md §12.2)', () => {
  it('defaults on create by client type', () => {
    expect(checkClientFields({}, 'confidential', true)).toEqual({
      ok: true,
      value: {
        grantTypes: ['authorization_code', 'refresh_token'],
        tokenEndpointAuthMethod: 'client_secret_basic',
        postLogoutRedirectUris: [],
      },
    });
    expect(checkClientFields({}, 'public', true)).toMatchObject({
      ok: true,
      value: { tokenEndpointAuthMethod: 'none' },
    });
    expect(checkClientFields({}, 'public', false)).toEqual({
      ok: true,
      value: {},
    });
  });

  it('grants: known ones, de-duplicated, client_credentials only for confidential clients, never empty', () => {
    expect(
      checkClientFields(
        { grant_types: [DEVICE, DEVICE, 'refresh_token'] },
        'public',
        false,
      ),
    ).toEqual({ ok: true, value: { grantTypes: [DEVICE, 'refresh_token'] } });
    expect(
      checkClientFields(
        { grant_types: ['client_credentials'] },
        'confidential',
        false,
      ).ok,
    ).toBe(true);
    for (const grant_types of [
      ['client_credentials'],
      [],
      ['implicit'],
      ['password'],
    ]) {
      expect(
        viaTable(checkClientFields({ grant_types }, 'public', false)),
      ).toEqual({ ok: false, status: 400, msg: '参数错误：grant_types' });
    }
  });

  it('auth method of the client type; logout callbacks under the redirect_uris rules', () => {
    expect(
      checkClientFields(
        { token_endpoint_auth_method: 'client_secret_post' },
        'confidential',
        false,
      ).ok,
    ).toBe(true);
    expect(
      viaTable(
        checkClientFields(
          { token_endpoint_auth_method: 'none' },
          'confidential',
          false,
        ),
      ),
    ).toMatchObject({ ok: false, msg: '参数错误：token_endpoint_auth_method' });
    expect(
      checkClientFields(
        { token_endpoint_auth_method: 'client_secret_basic' },
        'public',
        false,
      ).ok,
    ).toBe(false);
    expect(
      checkClientFields(
        { token_endpoint_auth_method: 'private_key_jwt' },
        'confidential',
        false,
      ).ok,
    ).toBe(false);
    expect(
      viaTable(
        checkClientFields(
          { post_logout_redirect_uris: ['http://example.com/bye'] },
          'confidential',
          false,
        ),
      ),
    ).toMatchObject({ ok: false, msg: '回调地址格式不正确' });
    expect(
      checkClientFields(
        {
          post_logout_redirect_uris: [
            'http://localhost:3000/bye',
            'com.example.app:/bye',
          ],
        },
        'public',
        false,
      ).ok,
    ).toBe(true);
    expect(
      checkClientFields(
        {
          post_logout_redirect_uris: Array.from(
            { length: 21 },
            (_, i) => `https://e.example/${i}`,
          ),
        },
        'public',
        false,
      ).ok,
    ).toBe(false);
  });
});

describe('signing key encryption at rest', () => {
  const sealer = (secret: string) =>
    new SecretBox(secret, 'aes-256-gcm v1', 'account-center/oidc/signing-keys');

  it('round-trips; another secret, another kid or any altered byte fails', () => {
    const c = sealer('secret-one-secret-one-secret-one-0123');
    const sealed = c.seal('{"d":"private"}', 'kid-1');
    expect(sealed).not.toContain('private');
    expect(c.open(sealed, 'kid-1')).toBe('{"d":"private"}');
    expect(c.seal('x', 'kid-1')).not.toBe(c.seal('x', 'kid-1'));
    expect(() =>
      sealer('secret-two-secret-two-secret-two-0123').open(sealed, 'kid-1'),
    ).toThrow();
    expect(() => c.open(sealed, 'kid-2')).toThrow();
    expect(() => c.open(sealed)).toThrow();
    for (const at of [1, 2, 3]) {
      const parts = sealed.split('.');
      parts[at] =
        parts[at]!.slice(0, -2) + (parts[at]!.endsWith('AA') ? 'BB' : 'AA');
      expect(() => c.open(parts.join('.'), 'kid-1')).toThrow();
    }
    expect(() => c.open('v2.a.b.c', 'kid-1')).toThrow(/format/);
  });
});
