import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A receiver that takes every request and never answers it, as a client's back-channel
 * endpoint that hangs would: each request holds its sender until the sender gives up.
 * `received` counts the requests that arrived; `close()` drops every open connection.
 */
export class HangingServer {
  received = 0;
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;

  /** Starts listening; the base URL (`http://127.0.0.1:<port>`), to which any path may be added. */
  async start(): Promise<string> {
    this.server = createServer(() => {
      this.received++;
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) =>
      this.server!.listen(0, '127.0.0.1', resolve),
    );
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}
