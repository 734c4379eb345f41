import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { viaTable } from '../helpers/refusal.js';
import {
  isValidVerifier,
  pkceForAuthorize,
  s256,
  verifyPkce,
} from '../../src/features/authorization/pkce.js';

const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
// RFC 7636 appendix B
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('s256', () => {
  it('matches RFC 7636 appendix B', () => {
    expect(s256(verifier)).toBe(challenge);
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(
      challenge,
    );
  });
  it('verifier syntax: 43–128 of [A-Za-z0-9-._~]', () => {
    expect(isValidVerifier('a'.repeat(43))).toBe(true);
    expect(isValidVerifier('a'.repeat(128))).toBe(true);
    expect(isValidVerifier('a'.repeat(42))).toBe(false);
    expect(isValidVerifier('a'.repeat(129))).toBe(false);
    expect(isValidVerifier(`-._~${'a'.repeat(40)}`)).toBe(true);
    expect(isValidVerifier(`+${'a'.repeat(43)}`)).toBe(false);
  });
});

describe('pkceForAuthorize', () => {
  it('binds an S256 challenge', () => {
    expect(pkceForAuthorize('public', challenge, 'S256')).toEqual({
      ok: true,
      value: { challenge, method: 'S256' },
    });
    expect(pkceForAuthorize('confidential', challenge, 'S256')).toEqual({
      ok: true,
      value: { challenge, method: 'S256' },
    });
  });
  it('confidential without PKCE binds nothing', () => {
    expect(pkceForAuthorize('confidential')).toEqual({ ok: true, value: null });
    expect(pkceForAuthorize('confidential', '', '')).toEqual({
      ok: true,
      value: null,
    });
  });
  it('public without a challenge is refused', () => {
    expect(viaTable(pkceForAuthorize('public'))).toEqual({
      ok: false,
      status: 400,
      msg: '公开客户端必须提供 code_challenge(PKCE)',
    });
    expect(viaTable(pkceForAuthorize('public', '', 'S256'))).toEqual({
      ok: false,
      status: 400,
      msg: '公开客户端必须提供 code_challenge(PKCE)',
    });
  });
  it('only S256: plain, missing or odd-case methods are refused', () => {
    for (const m of ['plain', 's256', 'SHA256', undefined]) {
      expect(viaTable(pkceForAuthorize('public', challenge, m))).toEqual({
        ok: false,
        status: 400,
        msg: '仅支持 code_challenge_method=S256',
      });
      expect(viaTable(pkceForAuthorize('confidential', challenge, m))).toEqual({
        ok: false,
        status: 400,
        msg: '仅支持 code_challenge_method=S256',
      });
    }
    expect(
      viaTable(pkceForAuthorize('confidential', undefined, 'plain')),
    ).toEqual({
      ok: false,
      status: 400,
      msg: '仅支持 code_challenge_method=S256',
    });
  });
  it('a challenge that cannot be an S256 value is a parameter error', () => {
    for (const c of [
      'short',
      `${challenge}A`,
      `${challenge.slice(0, 42)}=`,
      verifier.replace('d', '+'),
    ]) {
      expect(viaTable(pkceForAuthorize('public', c, 'S256'))).toEqual({
        ok: false,
        status: 400,
        msg: '参数错误：code_challenge',
      });
    }
    expect(
      viaTable(pkceForAuthorize('confidential', undefined, 'S256')),
    ).toEqual({ ok: false, status: 400, msg: '参数错误：code_challenge' });
  });
});

describe('verifyPkce', () => {
  it('accepts the matching verifier', () =>
    expect(verifyPkce(challenge, verifier).ok).toBe(true));
  it('no challenge, no verifier: nothing to check', () =>
    expect(verifyPkce(null).ok).toBe(true));
  it('missing verifier', () => {
    expect(viaTable(verifyPkce(challenge))).toEqual({
      ok: false,
      status: 400,
      msg: '缺少 code_verifier',
    });
    expect(viaTable(verifyPkce(challenge, ''))).toEqual({
      ok: false,
      status: 400,
      msg: '缺少 code_verifier',
    });
  });
  it('wrong verifier', () =>
    expect(viaTable(verifyPkce(challenge, 'x'.repeat(43)))).toEqual({
      ok: false,
      status: 401,
      msg: 'code_verifier 校验失败',
    }));
  it('malformed verifier', () =>
    expect(viaTable(verifyPkce(challenge, 'short'))).toEqual({
      ok: false,
      status: 400,
      msg: '参数错误：code_verifier',
    }));
  it('downgrade: a verifier for a code without challenge', () =>
    expect(viaTable(verifyPkce(null, verifier))).toEqual({
      ok: false,
      status: 401,
      msg: 'code_verifier 校验失败',
    }));
});
