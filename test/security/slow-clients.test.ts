import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../src/app/http.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/wait.js';

/** A service listening on loopback; `requestTimeoutMs` shortens the time a client has. */
async function listening(
  requestTimeoutMs?: number,
): Promise<{ t: TestApp; port: number }> {
  const t = await createTestApp({}, { requestTimeoutMs });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, port: (t.app.server.address() as { port: number }).port };
}

let t: TestApp;
let port: number;
beforeAll(async () => {
  ({ t, port } = await listening());
});
afterAll(async () => {
  await t.close();
});

describe('slow clients', () => {
  it('bounds the time a client may take to send its request', () => {
    expect(t.app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
    expect(t.app.server.headersTimeout).toBeGreaterThan(0);
    expect(t.app.server.headersTimeout).toBeLessThanOrEqual(
      REQUEST_TIMEOUT_MS * 2,
    );
  });

  it('cuts off a client that trickles its request, with 408, once its time is up', async () => {
    // The same server set-up with a 1 s allowance instead of 30 s, so the test waits for seconds, not a minute.
    const short = await listening(1000);
    const slow = connect(short.port, '127.0.0.1');
    try {
      let answer = '';
      slow.setEncoding('utf8').on('data', (d: string) => {
        answer += d;
      });
      slow.on('error', () => undefined); // a drip after the cut-off meets a closed socket
      const closed = new Promise<number>((resolve) =>
        slow.once('close', () => resolve(Date.now())),
      );
      await new Promise((r) => slow.once('connect', r));
      const started = Date.now();
      slow.write(
        'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user',
      );
      // One more byte now and then, as a slowloris client does, never finishing the body.
      const drip = async () => {
        while (!slow.destroyed && !slow.readableEnded) {
          slow.write(' ');
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      void drip();
      const closedAt = await waitFor(
        'the server to close the trickling connection',
        10_000,
        () => Promise.race([closed, Promise.resolve(undefined)]),
      );
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      // Not before its time (less a little clock slack), and not long after it.
      expect(closedAt - started).toBeGreaterThanOrEqual(900);
      expect(closedAt - started).toBeLessThan(5000);
    } finally {
      slow.destroy();
      await short.t.close();
    }
  });

  it('keeps serving others while a client trickles a request', async () => {
    const slow = connect(port, '127.0.0.1');
    await new Promise((r) => slow.once('connect', r));
    slow.write(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user',
    );
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
    slow.destroy();
  });
});
