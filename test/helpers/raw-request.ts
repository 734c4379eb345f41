import { connect } from 'node:net';
import type { Reply } from './server.js';

export interface RawRequest {
  method?: string;
  path: string;
  /** Left out when undefined: the request then has a body of no stated type. */
  contentType?: string;
  body: string;
  headers?: Record<string, string>;
  /** Keep the body's last byte back until release(): the server has the request but cannot run it. */
  holdLastByte?: boolean;
}

/**
 * An HTTP/1.1 request over its own socket, `Connection: close`. `sent` resolves once what is
 * written is in the kernel's hands, so a later request on another socket is known to arrive
 * after it; `answer` is the status and JSON body ({} when there is none) once the socket closes.
 */
export function rawRequest(
  base: string,
  req: RawRequest,
): {
  sent: Promise<void>;
  answer: Promise<Reply & { at: number }>;
  release(): void;
} {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => (text += d));
  const extra = Object.entries(req.headers ?? {})
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const type =
    req.contentType === undefined ? '' : `Content-Type: ${req.contentType}\r\n`;
  const head =
    `${req.method ?? 'POST'} ${req.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${extra}${type}` +
    `Content-Length: ${Buffer.byteLength(req.body)}\r\nConnection: close\r\n\r\n`;
  const held = req.holdLastByte ? req.body.slice(-1) : '';
  const sent = new Promise<void>((ok, fail) => {
    socket.once('error', fail);
    socket.write(
      head + req.body.slice(0, req.body.length - held.length),
      (err) => (err ? fail(err) : ok()),
    );
  });
  const answer = new Promise<Reply & { at: number }>((ok) => {
    socket.once('close', () => {
      const at = Date.now();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
      } catch {
        // a dropped connection has no body
      }
      ok({ status: m ? Number(m[1]) : 0, body, at });
    });
  });
  sent.catch(() => undefined);
  return { sent, answer, release: () => void socket.write(held) };
}
