import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/platform/crypto/secret-box.js';
import { KeyCipher } from '../../src/features/oidc/key-crypto.js';

// Values stored by earlier releases, each in the layout its writer used; they must open forever.
const SECRET = 'a-jwt-secret-of-enough-length-0123456789';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const PRIVATE_JWK = '{"kty":"OKP","crv":"Ed25519","d":"private part"}';
const SIXTEEN = '0123456789abcdef';

/** Authenticator secrets: `v1.<iv>.<ciphertext>.<tag>`, key from HKDF(secret, 'account-center', purpose). */
const STORED_TOTP = {
  secret: 'v1.vFyH58GeZF7UOFmS.lbpWfZaHUzycklYPKbZrXKp01uSoQ_uAz0gYB0nOWiE.H-Na3Fx29T3jsa5XUcJmmw',
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
    const cipher = new KeyCipher(SECRET);
    expect(cipher.decrypt(STORED_KEY.jwk, 'kid-legacy')).toBe(PRIVATE_JWK);
    expect(cipher.decrypt(STORED_KEY.sixteen, 'kid-legacy')).toBe(SIXTEEN);
    expect(() => cipher.decrypt(STORED_KEY.jwk, 'kid-other')).toThrow();
  });
});
