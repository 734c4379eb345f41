import { SMTPServer } from 'smtp-server';
import {
  createServer,
  type AddressInfo,
  type Server,
  type Socket,
} from 'node:net';
import { freePort } from './net.js';
import { waitFor } from './wait.js';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback that keeps every message, for reading e-mailed codes. It can
 * also stand for a mail server that is down: `reserve()` names its address before anything
 * listens there, `hang()` takes connections and never answers, and `start()` (again after
 * `stop()`) serves on the same port.
 */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  /** Connections taken by `hang()`. */
  hungConnections = 0;
  private server: SMTPServer | undefined;
  private silent: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  /** Picks the port the sink will serve on and returns its URL; nothing listens there yet. */
  async reserve(): Promise<string> {
    this.port = await freePort();
    return this.url();
  }

  /** Serves on the reserved port (or, with none, on a fresh one) and returns its URL. */
  async start(): Promise<string> {
    const server = new SMTPServer({
      authOptional: true,
      // Pooled clients keep their connection open: stopping waits this long for them, not 30 s.
      closeTimeout: 100,
      disabledCommands: ['STARTTLS'],
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.messages.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    this.server = server;
    await new Promise<void>((resolve) =>
      server.listen(this.port, '127.0.0.1', resolve),
    );
    this.port = (server.server.address() as AddressInfo).port;
    return this.url();
  }

  /** A server that accepts connections on the reserved port and never says a word. */
  async hang(): Promise<void> {
    const silent = createServer((socket) => {
      this.hungConnections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.silent = silent;
    await new Promise<void>((resolve) =>
      silent.listen(this.port, '127.0.0.1', resolve),
    );
  }

  /**
   * A server that hung comes back: it stops taking connections (those it took stay hung, as
   * after a restart the old ones are dead) and serves on the same port.
   */
  async answer(): Promise<string> {
    // close() frees the port at once; its callback would wait for the hung connections.
    this.silent?.close();
    this.silent = undefined;
    return this.start();
  }

  url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The 6-digit code of the newest message to `email`, waiting briefly for delivery. */
  async codeFor(email: string, timeoutMs = 5000): Promise<string> {
    return waitFor(
      `a code mailed to ${email}`,
      timeoutMs,
      () => {
        const mail = [...this.messages]
          .reverse()
          .find((m) => m.to.includes(email.toLowerCase()));
        return (
          (mail && /(?<!\d)(\d{6})(?!\d)/.exec(decodeBody(mail.raw))?.[1]) ??
          undefined
        );
      },
      25,
    );
  }

  /** Waits until more than `before` messages went to `email`, and returns the newest code. */
  async nextCodeFor(
    email: string,
    before: number,
    timeoutMs = 5000,
  ): Promise<string> {
    await waitFor(
      `another message to ${email}`,
      timeoutMs,
      () => this.countTo(email) > before,
      20,
    );
    return this.codeFor(email);
  }

  /** The decoded texts of the messages to `email`, oldest first. */
  textsTo(email: string): string[] {
    return this.messages
      .filter((m) => m.to.includes(email.toLowerCase()))
      .map((m) => decodeBody(m.raw));
  }

  /** The decoded subjects of the messages to `email`, oldest first. */
  subjectsTo(email: string): string[] {
    return this.messages
      .filter((m) => m.to.includes(email.toLowerCase()))
      .map((m) => decodeSubject(m.raw));
  }

  countTo(email: string): number {
    return this.messages.filter((m) => m.to.includes(email.toLowerCase()))
      .length;
  }

  /** Stops whichever server runs (dropping hung connections); `start()` may follow on the same port. */
  async stop(): Promise<void> {
    const { server, silent } = this;
    this.server = undefined;
    this.silent = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server)
      await new Promise<void>((resolve) => server.close(() => resolve()));
    if (silent?.listening)
      await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
}

/** Bodies arrive quoted-printable or base64 encoded; decode enough to find the digits. */
function decodeBody(raw: string): string {
  const [, ...parts] = raw.split(/\r?\n\r?\n/);
  const body = parts.join('\n');
  if (/content-transfer-encoding:\s*base64/i.test(raw)) {
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, h: string) =>
      String.fromCharCode(parseInt(h, 16)),
    );
}

/** The Subject header, unfolded, with its RFC 2047 encoded words (B or Q) decoded. */
function decodeSubject(raw: string): string {
  const header =
    /^subject:(.*(?:\r?\n[ \t].*)*)/im.exec(
      raw.split(/\r?\n\r?\n/, 1)[0]!,
    )?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      (enc.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) =>
                String.fromCharCode(parseInt(h, 16)),
              ),
            'latin1',
          )
      ).toString('utf8'),
    );
}
