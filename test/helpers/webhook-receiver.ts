import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createTestApp } from './app.js';

export interface ReceivedEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  /** The `webhook-id` header. */
  id: string;
}

/**
 * A webhook receiver as a community service would run one: it checks every request with the
 * `standardwebhooks` library and keeps the events whose signature verified. `failNext(n)`
 * makes it answer the next n requests with a 500.
 */
export class WebhookReceiver {
  readonly events: ReceivedEvent[] = [];
  readonly rejected: string[] = [];
  /** Raw requests, for checks on the body or headers. */
  readonly requests: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  private failing = 0;
  private server: Server | undefined;
  private secret: string | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.requests.push({ headers: req.headers, body });
        if (this.failing > 0) {
          this.failing--;
          res.writeHead(500).end('not now');
          return;
        }
        try {
          if (!this.secret) throw new Error('no secret yet');
          const event = new Webhook(this.secret).verify(
            body,
            req.headers as Record<string, string>,
          ) as Omit<ReceivedEvent, 'id'>;
          this.events.push({ ...event, id: String(req.headers['webhook-id']) });
          res.writeHead(204).end();
        } catch (err) {
          this.rejected.push((err as Error).message);
          res.writeHead(400).end('bad signature');
        }
      });
    });
    await new Promise<void>((resolve) =>
      this.server!.listen(0, '127.0.0.1', resolve),
    );
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** The secret the center showed when the endpoint was registered. */
  trust(secret: string): void {
    this.secret = secret;
  }

  failNext(n: number): void {
    this.failing = n;
  }

  ofType(type: string): ReceivedEvent[] {
    return this.events.filter((e) => e.type === type);
  }

  close(): Promise<void> {
    return new Promise((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/**
 * A test app with private webhook targets allowed, on `now`, and one endpoint registered (with
 * `endpoint`'s fields) to a fresh receiver that trusts its secret.
 */
export async function centerWithReceiver(
  now: () => number,
  endpoint: Record<string, unknown> = {},
) {
  const t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'on' }, { now });
  const receiver = new WebhookReceiver();
  const url = await receiver.start();
  const admin = await t.admin();
  const added = await t.post(
    '/api/v1/auth/admin/webhooks',
    { url, ...endpoint },
    admin.token,
  );
  if (added.statusCode !== 200)
    throw new Error(`webhook not added: ${added.body}`);
  const { id, secret } = added.json().data as { id: string; secret: string };
  receiver.trust(secret);
  return { t, admin, receiver, endpointId: id };
}
