import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  IP_ONLY_RULES,
  limitPolicyFrom,
} from '../../src/features/limits/policy.js';
import { fail } from '../../src/errors/index.js';
import { SecretBox } from '../../src/platform/crypto/secret-box.js';

describe('SecretBox (authenticator secrets at rest)', () => {
  const box = new SecretBox(
    'a-jwt-secret-of-enough-length-0123456789',
    'totp-secret',
  );

  it('opens what it sealed; the sealed text never holds the secret and differs every time', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const a = box.seal(secret);
    const b = box.seal(secret);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(box.open(a)).toBe(secret);
    expect(box.open(b)).toBe(secret);
  });

  it('refuses another JWT secret, another purpose, tampering and junk', () => {
    const sealed = box.seal('secret');
    expect(() =>
      new SecretBox(
        'another-jwt-secret-of-enough-length-012345',
        'totp-secret',
      ).open(sealed),
    ).toThrow();
    expect(() =>
      new SecretBox(
        'a-jwt-secret-of-enough-length-0123456789',
        'recovery-code',
      ).open(sealed),
    ).toThrow();
    const [v, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() =>
      box.open([v, iv, flipped.toString('base64url'), tag].join('.')),
    ).toThrow();
    for (const junk of ['', 'v1', 'v2.a.b.c', 'v1...'])
      expect(() => box.open(junk)).toThrow();
  });

  it('keyed hashes depend on the key and the purpose', () => {
    const other = new SecretBox(
      'a-jwt-secret-of-enough-length-0123456789',
      'recovery-code',
    );
    expect(box.mac('abcde12345')).toMatch(/^[0-9a-f]{64}$/);
    expect(box.mac('abcde12345')).toBe(box.mac('abcde12345'));
    expect(other.mac('abcde12345')).not.toBe(box.mac('abcde12345'));
  });
});

describe('second-factor rules and messages', () => {
  it('otp tries have their own limits, configurable, the address one switched by IP_RATE_LIMITS', () => {
    expect(DEFAULT_LIMITS.otpPair).toEqual({ max: 5, windowS: 900 });
    expect(DEFAULT_LIMITS.otpAccount).toEqual({ max: 20, windowS: 900 });
    expect(limitPolicyFrom({ LIMIT_OTP_PAIR: '3/60' }).otpPair).toEqual({
      max: 3,
      windowS: 60,
    });
    expect(() => limitPolicyFrom({ LIMIT_OTP_ACCOUNT: 'many' })).toThrow(
      /LIMIT_OTP_ACCOUNT/,
    );
    expect(IP_ONLY_RULES.has('otpIp')).toBe(true);
    expect(IP_ONLY_RULES.has('otpPair')).toBe(false);
  });

  it('the two sign-in answers are 401 with their fixed texts', () => {
    expect([
      fail('secondFactorRequired').status,
      fail('secondFactorRequired').msg,
    ]).toEqual([401, '需要两步验证']);
    expect([
      fail('badSecondFactor').status,
      fail('badSecondFactor').msg,
    ]).toEqual([401, '两步验证码错误']);
  });
});
