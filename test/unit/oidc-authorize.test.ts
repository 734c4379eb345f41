import { describe, expect, it } from 'vitest';
import {
  checkRequest,
  consentCovers,
  resolveRedirect,
  single,
  withQuery,
  type ClientFacts,
} from '../../src/features/oidc/authorize-rules.js';

const CB = 'https://rp.example.com/cb';
const client: ClientFacts = {
  clientId: 'forum',
  redirectUris: [CB],
  scopes: ['forum.read'],
  clientType: 'confidential',
  grantTypes: ['authorization_code', 'refresh_token'],
};
const ok = { response_type: 'code', scope: 'openid' };
const check = (params: Record<string, unknown>, c: ClientFacts = client) =>
  checkRequest(params, c, { uri: CB, given: true });
const errorOf = (params: Record<string, unknown>, c?: ClientFacts) => {
  const r = check(params, c);
  return r.ok ? 'ok' : r.error.error;
};

describe('authorization request rules', () => {
  it('single values: repeats are flagged, blanks are absent', () => {
    expect(single({ a: 'x' }, 'a')).toBe('x');
    expect(single({ a: '' }, 'a')).toBeUndefined();
    expect(single({ a: ['x'] }, 'a')).toBe('x');
    expect(single({ a: ['x', 'y'] }, 'a')).toEqual({ repeated: true });
    expect(single({ a: 7 }, 'a')).toBeUndefined();
    expect(single({}, 'a')).toBeUndefined();
  });

  it('the callback: exact match, or the only one when omitted', () => {
    expect(resolveRedirect([CB], CB)).toEqual({ uri: CB, given: true });
    expect(resolveRedirect([CB], undefined)).toEqual({ uri: CB, given: false });
    expect(resolveRedirect([CB, `${CB}2`], undefined)).toBeUndefined();
    expect(resolveRedirect([CB], `${CB}/`)).toBeUndefined();
  });

  it("scope: required, standard ones and the client's own", () => {
    expect(errorOf(ok)).toBe('ok');
    expect(
      errorOf({
        ...ok,
        scope: 'openid profile email offline_access forum.read',
      }),
    ).toBe('ok');
    expect(errorOf({ ...ok, scope: 'openid forum.write' })).toBe(
      'invalid_scope',
    );
    expect(errorOf({ response_type: 'code' })).toBe('invalid_request');
    expect(errorOf({ ...ok, scope: '   ' })).toBe('invalid_scope');
  });

  it('offline_access is dropped for a client without the refresh grant', () => {
    const r = check(
      { ...ok, scope: 'openid offline_access' },
      { ...client, grantTypes: ['authorization_code'] },
    );
    expect(r.ok && r.request.scopes).toEqual(['openid']);
    const kept = check({ ...ok, scope: 'openid offline_access' });
    expect(kept.ok && kept.request.scopes).toEqual([
      'openid',
      'offline_access',
    ]);
  });

  it('a client without the authorization_code grant is unauthorized_client', () => {
    expect(
      errorOf(ok, {
        ...client,
        grantTypes: ['urn:ietf:params:oauth:grant-type:device_code'],
      }),
    ).toBe('unauthorized_client');
  });

  it('PKCE and prompt', () => {
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    expect(
      errorOf({
        ...ok,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    ).toBe('ok');
    expect(
      errorOf({
        ...ok,
        code_challenge: challenge,
        code_challenge_method: 'plain',
      }),
    ).toBe('invalid_request');
    expect(errorOf(ok, { ...client, clientType: 'public' })).toBe(
      'invalid_request',
    );
    expect(errorOf({ ...ok, prompt: 'login consent' })).toBe('ok');
    expect(errorOf({ ...ok, prompt: 'none consent' })).toBe('invalid_request');
    expect(errorOf({ ...ok, max_age: '0' })).toBe('ok');
    expect(errorOf({ ...ok, max_age: '1.5' })).toBe('invalid_request');
  });

  it('remembered consent covers a subset unless the client asks again', () => {
    const r = check({ ...ok, scope: 'openid profile' });
    if (!r.ok) throw new Error('expected ok');
    expect(consentCovers(['openid', 'profile', 'email'], r.request)).toBe(true);
    expect(consentCovers(['openid'], r.request)).toBe(false);
    expect(consentCovers(undefined, r.request)).toBe(false);
    expect(
      consentCovers(['openid', 'profile'], {
        ...r.request,
        prompt: ['consent'],
      }),
    ).toBe(false);
  });

  it('callback parameters are appended after an existing query', () => {
    expect(
      withQuery(CB, {
        code: 'a b',
        state: undefined,
        iss: 'https://id.example.com',
      }),
    ).toBe(`${CB}?code=a+b&iss=https%3A%2F%2Fid.example.com`);
    expect(withQuery(`${CB}?x=1`, { error: 'access_denied' })).toBe(
      `${CB}?x=1&error=access_denied`,
    );
  });
});
