import { connect } from 'node:net';
import { startServer as startService, type Reply, type RunningServer } from '../helpers/server.js';

export { call, type RunningServer } from '../helpers/server.js';
export const CRASH_SECRET = 'crash-test-secret-crash-test-secret-0123456789';

/** The real service (`account-center serve`) on a SQLite file, answering /healthz. */
export function startServer(dbFile: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return startService({ DATABASE_URL: `sqlite:${dbFile}`, JWT_SECRET: CRASH_SECRET, LOG_LEVEL: 'warn', ...env });
}

/**
 * A POST over a raw socket: `sent` resolves once the whole request is in the kernel's hands,
 * so a later request on another socket is known to arrive after it.
 */
export function rawPost(base: string, path: string, payload: unknown, method = 'POST'): { sent: Promise<void>; answer: Promise<Reply & { at: number }> } {
  const { hostname, port } = new URL(base);
  const body = payload === undefined ? '' : JSON.stringify(payload);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => (text += d));
  const sent = new Promise<void>((ok, fail) => {
    socket.once('error', fail);
    socket.write(
      `${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      (err) => (err ? fail(err) : ok()),
    );
  });
  const answer = new Promise<Reply & { at: number }>((ok) => {
    const done = () => {
      const at = Date.now();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const json = text.slice(text.indexOf('\r\n\r\n') + 4);
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(json);
      } catch {
        // a dropped connection has no body
      }
      ok({ status: m ? Number(m[1]) : 0, body: parsed, at });
    };
    socket.once('close', done);
  });
  sent.catch(() => undefined);
  return { sent, answer };
}
