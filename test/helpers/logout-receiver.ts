import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createRemoteJWKSet,
  customFetch,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';

/**
 * A relying party's Back-Channel Logout endpoint as its developers would write it: it takes
 * `logout_token` from the form body and checks it with `jose` against the provider's JWKS
 * (issuer, audience, `typ: logout+jwt`, the logout event, no nonce), answering 200 when valid
 * and 400 otherwise. `failNext(n)` answers the next n requests with a 503.
 */
export class LogoutReceiver {
  readonly tokens: JWTPayload[] = [];
  readonly rejected: string[] = [];
  readonly contentTypes: string[] = [];
  private failing = 0;
  private server: Server | undefined;
  private jwks: JWTVerifyGetKey | undefined;

  constructor(
    private readonly issuer: string,
    private readonly audience: string,
  ) {}

  /** Starts listening; the URL to register as `backchannel_logout_uri`. `fetchJwks` reaches an in-process provider. */
  async start(jwksUri: string, fetchJwks?: typeof fetch): Promise<string> {
    this.jwks = createRemoteJWKSet(
      new URL(jwksUri),
      fetchJwks ? { [customFetch]: fetchJwks } : {},
    );
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.contentTypes.push(String(req.headers['content-type']));
        if (this.failing > 0) {
          this.failing--;
          res.writeHead(503).end();
          return;
        }
        void this.check(Buffer.concat(chunks).toString('utf8')).then(
          (payload) => {
            this.tokens.push(payload);
            res.writeHead(200, { 'cache-control': 'no-store' }).end();
          },
          (err: unknown) => {
            this.rejected.push((err as Error).message);
            res.writeHead(400).end();
          },
        );
      });
    });
    await new Promise<void>((resolve) =>
      this.server!.listen(0, '127.0.0.1', resolve),
    );
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/backchannel-logout`;
  }

  private async check(body: string): Promise<JWTPayload> {
    const token = new URLSearchParams(body).get('logout_token');
    if (!token) throw new Error('no logout_token');
    const { payload } = await jwtVerify(token, this.jwks!, {
      issuer: this.issuer,
      audience: this.audience,
      typ: 'logout+jwt',
      maxTokenAge: '2 minutes',
    });
    const events = payload.events as Record<string, unknown> | undefined;
    if (
      !events ||
      typeof events['http://schemas.openid.net/event/backchannel-logout'] !==
        'object'
    )
      throw new Error('no logout event');
    if ('nonce' in payload) throw new Error('a nonce in a logout token');
    if (
      typeof payload.sid !== 'string' ||
      typeof payload.sub !== 'string' ||
      typeof payload.jti !== 'string'
    )
      throw new Error('sid, sub or jti missing');
    return payload;
  }

  failNext(n: number): void {
    this.failing = n;
  }

  /** The verified logout tokens naming this session. */
  forSid(sid: string): JWTPayload[] {
    return this.tokens.filter((p) => p.sid === sid);
  }

  close(): Promise<void> {
    return new Promise((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
