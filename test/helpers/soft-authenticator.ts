import {
  createHash,
  generateKeyPairSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey authenticator for API tests: answers WebAuthn creation and request
 * options as a browser with a built-in authenticator would (ES256, "none" attestation,
 * resident keys, user verified by default), so the server's checks run against real
 * signatures. `userVerified: false` answers like a security key without PIN or biometric:
 * user present only (flags 0x01 / 0x41).
 * Chromium's own virtual authenticator covers the pages (test/e2e).
 */
interface Credential {
  id: string;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

const b64 = (b: Uint8Array | Buffer) => Buffer.from(b).toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(
    private readonly origin: string,
    private readonly rpId = new URL(origin).hostname,
  ) {}

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge,
        origin: this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** The browser helper's RegistrationResponseJSON for these creation options. */
  create(
    options: Record<string, any>,
    { userVerified = true } = {},
  ): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
    });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const rawId = randomBytes(16);
    const id = b64(rawId);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    // flags: user present, user verified (unless told otherwise), attested credential data
    const authData = Buffer.concat([
      sha256(options.rp?.id ?? this.rpId),
      Buffer.from([userVerified ? 0x45 : 0x41]),
      u32(0),
      Buffer.alloc(16),
      idLength,
      rawId,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestation = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    this.credentials.push({
      id,
      privateKey,
      userHandle: options.user.id,
      counter: 0,
    });
    return {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64(
          this.clientData('webauthn.create', options.challenge),
        ),
        attestationObject: b64(attestation),
        transports: ['internal'],
      },
    };
  }

  /** The browser helper's AuthenticationResponseJSON for these request options (a discoverable credential). */
  get(
    options: Record<string, any>,
    credential = this.credentials[0]!,
    { userVerified = true } = {},
  ): Record<string, unknown> {
    credential.counter += 1;
    // flags: user present, and user verified unless told otherwise
    const authData = Buffer.concat([
      sha256(options.rpId ?? this.rpId),
      Buffer.from([userVerified ? 0x05 : 0x01]),
      u32(credential.counter),
    ]);
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64(clientData),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}
