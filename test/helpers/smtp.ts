import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on loopback that keeps every message, for reading e-mailed codes. */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  private server: SMTPServer;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.messages.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** The 6-digit code of the newest message to `email`, waiting briefly for delivery. */
  async codeFor(email: string, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = [...this.messages].reverse().find((m) => m.to.includes(email.toLowerCase()));
      const match = mail && /(?<!\d)(\d{6})(?!\d)/.exec(decodeBody(mail.raw));
      if (match) return match[1]!;
      if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  countTo(email: string): number {
    return this.messages.filter((m) => m.to.includes(email.toLowerCase())).length;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Bodies arrive quoted-printable or base64 encoded; decode enough to find the digits. */
function decodeBody(raw: string): string {
  const [, ...parts] = raw.split(/\r?\n\r?\n/);
  const body = parts.join('\n');
  if (/content-transfer-encoding:\s*base64/i.test(raw)) {
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
