import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Closing the service (SIGTERM) waits for the answers in flight and for nothing else: not for a
 * connection that never sends a request, not for a keep-alive connection once its answer is out,
 * and not beyond the request timeout for a request that never finishes arriving.
 */
async function listening(
  requestTimeoutMs?: number,
): Promise<{ t: TestApp; port: number }> {
  const t = await createTestApp({}, { requestTimeoutMs });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, port: (t.app.server.address() as { port: number }).port };
}

async function connected(
  port: number,
): Promise<{ socket: Socket; gone: Promise<void>; received: () => string }> {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.setEncoding('utf8').on('data', (d: string) => {
    data += d;
  });
  socket.on('error', () => undefined);
  const gone = new Promise<void>((resolve) =>
    socket.once('close', () => resolve()),
  );
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, gone, received: () => data };
}

const LOGIN = JSON.stringify({
  username: 'nobody_here',
  password: 'not the password',
});
const loginHead = (length: number) =>
  `POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: keep-alive\r\n\r\n`;

describe('closing the service', () => {
  it('does not wait for a connection that has sent nothing, as a browser opens ahead of need', async () => {
    const { t, port } = await listening();
    const quiet = await connected(port);
    await t.close();
    await quiet.gone;
    expect(quiet.received()).toBe('');
  });

  it('finishes a request in flight, then closes its keep-alive connection', async () => {
    const { t, port } = await listening();
    const client = await connected(port);
    const arrived = new Promise((resolve) =>
      t.app.server.once('request', resolve),
    );
    client.socket.write(loginHead(LOGIN.length) + LOGIN.slice(0, 5));
    await arrived;
    const closing = t.close();
    client.socket.write(LOGIN.slice(5));
    await closing;
    await client.gone;
    expect(client.received()).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('closes, once the request timeout has passed, a connection whose request never finishes arriving', async () => {
    const { t, port } = await listening(1000);
    const client = await connected(port);
    const arrived = new Promise((resolve) =>
      t.app.server.once('request', resolve),
    );
    client.socket.write(loginHead(LOGIN.length) + LOGIN.slice(0, 5));
    await arrived;
    await t.close();
    await client.gone;
  });
});
