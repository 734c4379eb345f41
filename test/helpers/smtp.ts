import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { waitFor } from './wait.js';

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
    return waitFor(`a code mailed to ${email}`, timeoutMs, () => {
      const mail = [...this.messages].reverse().find((m) => m.to.includes(email.toLowerCase()));
      return (mail && /(?<!\d)(\d{6})(?!\d)/.exec(decodeBody(mail.raw))?.[1]) ?? undefined;
    }, 25);
  }

  /** Waits until more than `before` messages went to `email`, and returns the newest code. */
  async nextCodeFor(email: string, before: number, timeoutMs = 5000): Promise<string> {
    await waitFor(`another message to ${email}`, timeoutMs, () => this.countTo(email) > before, 20);
    return this.codeFor(email);
  }

  /** The decoded texts of the messages to `email`, oldest first. */
  textsTo(email: string): string[] {
    return this.messages.filter((m) => m.to.includes(email.toLowerCase())).map((m) => decodeBody(m.raw));
  }

  /** The decoded subjects of the messages to `email`, oldest first. */
  subjectsTo(email: string): string[] {
    return this.messages.filter((m) => m.to.includes(email.toLowerCase())).map((m) => decodeSubject(m.raw));
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

/** The Subject header, unfolded, with its RFC 2047 encoded words (B or Q) decoded. */
function decodeSubject(raw: string): string {
  const header = /^subject:(.*(?:\r?\n[ \t].*)*)/im.exec(raw.split(/\r?\n\r?\n/, 1)[0]!)?.[1] ?? '';
  return header.replace(/\r?\n[ \t]/g, ' ').trim()
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, text: string) => (enc.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1')).toString('utf8'));
}
