import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How often, while the server closes, connections that have gone quiet are closed. */
const SWEEP_MS = 50;

/**
 * Lets a closing server finish as soon as its requests in flight have been answered.
 *
 * `server.close()` alone does not: Node closes the idle keep-alive connections once, when it is
 * called, and stops checking request timeouts. A connection that has not sent a byte yet (a
 * browser's speculative connection) counts as busy, so that it meets the headers timeout, and
 * then holds the close for ever; one whose answer was still being written turns idle afterwards
 * and waits out the keep-alive timeout. So from the start of the close, connections that never
 * sent a byte are closed, idle ones are closed again every SWEEP_MS, and whatever is still open
 * when `deadlineMs` has passed (a client that never finishes its request, which the stopped
 * timeout checks would have cut off) is closed too.
 */
export function drainConnectionsOnClose(
  app: FastifyInstance,
  deadlineMs: number,
): void {
  const server = app.server as Server;
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  app.addHook('preClose', (done) => {
    const sweep = () => {
      server.closeIdleConnections();
      for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
    };
    sweep();
    const sweeping = setInterval(sweep, SWEEP_MS).unref();
    const deadline = setTimeout(
      () => server.closeAllConnections(),
      deadlineMs,
    ).unref();
    server.once('close', () => {
      clearInterval(sweeping);
      clearTimeout(deadline);
    });
    done();
  });
}
