import {
  LocalChangeBus,
  type ChangeBus,
  type ChangeEvent,
} from './change-bus.js';

/**
 * Messages between the workers of `serve --workers N` and their primary, over the cluster
 * IPC channel. The primary relays change events to the other workers (the rate-limit
 * counters travel on rate-limiter-flexible's own channel, platform/rate-limit/counters.ts),
 * so the workers of one machine behave as one instance.
 */
export type ClusterMessage = { kind: 'ac:change'; event: ChangeEvent };

export function isClusterMessage(m: unknown): m is ClusterMessage {
  return (
    typeof m === 'object' &&
    m !== null &&
    typeof (m as { kind?: unknown }).kind === 'string' &&
    (m as { kind: string }).kind.startsWith('ac:')
  );
}

type Channel = Pick<NodeJS.Process, 'send' | 'on' | 'off'>;

function send(channel: Channel, message: ClusterMessage): void {
  // A worker whose primary is gone is about to be shut down; the local effect already happened.
  if (typeof channel.send === 'function')
    channel.send(message, undefined, {}, () => undefined);
}

/** Worker side of the change relay: local delivery at once, then the primary tells the others. */
export class ClusterChangeBus implements ChangeBus {
  private readonly local = new LocalChangeBus();
  private readonly onMessage = (m: unknown) => {
    if (isClusterMessage(m) && m.kind === 'ac:change')
      this.local.deliver(m.event);
  };

  constructor(private readonly channel: Channel = process) {
    channel.on('message', this.onMessage);
  }

  publish(event: ChangeEvent): void {
    this.local.publish(event);
    send(this.channel, { kind: 'ac:change', event });
  }

  subscribe(listener: (event: ChangeEvent) => void): void {
    this.local.subscribe(listener);
  }

  async close(): Promise<void> {
    this.channel.off('message', this.onMessage);
  }
}
