import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/platform/crypto/secret-box.js';

// Values stored by earlier releases, each in the layout its writer used; they must open forever.
const SECRET = 'a-jwt-secret-of-enough-length-0123456789';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const PRIVATE_JWK = '{"kty":"OKP","crv":"Ed25519","d":"private part"}';
const SIXTEEN = '0123456789abcdef';

/** Authenticator secrets: `v1.<iv>.<ciphertext>.<tag>`, key from HKDF(secret, 'account-center', purpose). */
const STORED_TOTP = {
  secret:
    'v1.vFyH58GeZF7UOFmS.lbpWfZaHUzycklYPKbZrXKp01uSoQ_uAz0gYB0nOWiE.H-Na3Fx29T3jsa5XUcJmmw',
  sixteen: 'v1.JNVpEsL0JFegim1_.RdcbMfGU_aaCrrMMFaHUZw.bk53QS5ZJfchW_3GAQQMAg',
};
/** Private signing keys: `v1.<iv>.<tag>.<ciphertext>`, the kid bound as additional data. */
const STORED_KEY = {
  jwk: 'v1.3VFLke-XMnA1r7vY.2Gv5Z7P8KhSoMjLAVJ-SfQ.5lGCp6bqbviD2NvFiWSmAg7s1SATjuBKRVOLIUo_D3pMGYlyWWMN30CbnU3GoU4R',
  // Tag and ciphertext of equal length: only the tag itself tells which is which.
  sixteen: 'v1.1I1WZJ3IiHExCD5-.292Zz3ZB7iDhlRHhfLLk2A.r9HwrI-_bKcOYCjnUG87og',
};

describe('secrets stored by earlier releases', () => {
  it('authenticator secrets open', () => {
    const box = new SecretBox(SECRET, 'totp-secret');
    expect(box.open(STORED_TOTP.secret)).toBe(TOTP_SECRET);
    expect(box.open(STORED_TOTP.sixteen)).toBe(SIXTEEN);
  });

  it('private signing keys open, under their own kid only', () => {
    const keys = new SecretBox(
      SECRET,
      'aes-256-gcm v1',
      'account-center/oidc/signing-keys',
    );
    expect(keys.open(STORED_KEY.jwk, 'kid-legacy')).toBe(PRIVATE_JWK);
    expect(keys.open(STORED_KEY.sixteen, 'kid-legacy')).toBe(SIXTEEN);
    expect(() => keys.open(STORED_KEY.jwk, 'kid-other')).toThrow();
    expect(() => keys.open(STORED_KEY.jwk)).toThrow();
  });

  it('a tag cut short is refused in either place', () => {
    const keys = new SecretBox(
      SECRET,
      'aes-256-gcm v1',
      'account-center/oidc/signing-keys',
    );
    const [v, iv, tag, data] = STORED_KEY.jwk.split('.') as [
      string,
      string,
      string,
      string,
    ];
    const short = Buffer.from(tag, 'base64url')
      .subarray(0, 12)
      .toString('base64url');
    expect(() =>
      keys.open([v, iv, short, data].join('.'), 'kid-legacy'),
    ).toThrow();
    expect(() =>
      keys.open([v, iv, data, short].join('.'), 'kid-legacy'),
    ).toThrow();
  });
});

describe('what is sealed now', () => {
  it('one layout for every purpose: v1.<iv>.<ciphertext>.<tag>, opening as before', () => {
    const totp = new SecretBox(SECRET, 'totp-secret');
    const keys = new SecretBox(
      SECRET,
      'aes-256-gcm v1',
      'account-center/oidc/signing-keys',
    );
    for (const [box, context] of [
      [totp, undefined],
      [keys, 'kid-new'],
    ] as const) {
      const sealed = box.seal(SIXTEEN + SIXTEEN, context);
      const [v, iv, body, tag] = sealed.split('.') as [
        string,
        string,
        string,
        string,
      ];
      expect([
        v,
        Buffer.from(iv, 'base64url').length,
        Buffer.from(body, 'base64url').length,
        Buffer.from(tag, 'base64url').length,
      ]).toEqual(['v1', 12, 32, 16]);
      expect(box.open(sealed, context)).toBe(SIXTEEN + SIXTEEN);
    }
  });
});
