import { randomUUID } from 'node:crypto';
import { LocalChangeBus, type ChangeBus, type ChangeEvent } from './change-bus.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../rate-limit/stores.js';

/**
 * Messages between the workers of `serve --workers N` and their primary, over the cluster
 * IPC channel. The primary relays change events to the other workers and keeps the rate
 * limit counters, so the workers of one machine behave as one instance.
 */
export type ClusterMessage =
  | { kind: 'ac:change'; event: ChangeEvent }
  | { kind: 'ac:limit'; id: string; op: LimitOp; key: string; windowMs?: number }
  | { kind: 'ac:limit-result'; id: string; value?: number; error?: string };

type LimitOp = 'increment' | 'decrement' | 'peek' | 'msLeft' | 'reset';

export function isClusterMessage(m: unknown): m is ClusterMessage {
  return typeof m === 'object' && m !== null && typeof (m as { kind?: unknown }).kind === 'string' && (m as { kind: string }).kind.startsWith('ac:');
}

type Channel = Pick<NodeJS.Process, 'send' | 'on' | 'off'>;

function send(channel: Channel, message: ClusterMessage): void {
  // A worker whose primary is gone is about to be shut down; the local effect already happened.
  if (typeof channel.send === 'function') channel.send(message, undefined, {}, () => undefined);
}

/** Worker side of the change relay: local delivery at once, then the primary tells the others. */
export class ClusterChangeBus implements ChangeBus {
  private readonly local = new LocalChangeBus();
  private readonly onMessage = (m: unknown) => {
    if (isClusterMessage(m) && m.kind === 'ac:change') this.local.deliver(m.event);
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

/** Worker side of the shared counters: each call is answered by the primary's memory store. */
export class ClusterRateLimitStore implements RateLimitStore {
  private readonly pending = new Map<string, { resolve: (v: number) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private readonly onMessage = (m: unknown) => {
    if (!isClusterMessage(m) || m.kind !== 'ac:limit-result') return;
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.error) p.reject(new Error(m.error));
    else p.resolve(m.value ?? 0);
  };

  constructor(private readonly channel: Channel = process, private readonly timeoutMs = 2000) {
    channel.on('message', this.onMessage);
  }

  private ask(op: LimitOp, key: string, windowMs?: number): Promise<number> {
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error('rate limit store: the primary process did not answer'));
      }, this.timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      send(this.channel, { kind: 'ac:limit', id, op, key, windowMs });
    });
  }

  increment(key: string, windowMs: number): Promise<number> {
    return this.ask('increment', key, windowMs);
  }

  async decrement(key: string): Promise<void> {
    await this.ask('decrement', key);
  }

  peek(key: string): Promise<number> {
    return this.ask('peek', key);
  }

  msLeft(key: string): Promise<number> {
    return this.ask('msLeft', key);
  }

  async reset(key: string): Promise<void> {
    await this.ask('reset', key);
  }

  async close(): Promise<void> {
    this.channel.off('message', this.onMessage);
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
  }
}

/**
 * Primary side: answers a worker's counter request from one store shared by all workers.
 * The primary handles one message at a time, so each increment is atomic across workers.
 */
export async function answerLimitRequest(store: MemoryRateLimitStore, m: Extract<ClusterMessage, { kind: 'ac:limit' }>): Promise<ClusterMessage> {
  try {
    let value = 0;
    if (m.op === 'increment') value = await store.increment(m.key, m.windowMs ?? 1000);
    else if (m.op === 'decrement') await store.decrement(m.key);
    else if (m.op === 'peek') value = await store.peek(m.key);
    else if (m.op === 'msLeft') value = await store.msLeft(m.key);
    else await store.reset(m.key);
    return { kind: 'ac:limit-result', id: m.id, value };
  } catch (err) {
    return { kind: 'ac:limit-result', id: m.id, error: (err as Error).message };
  }
}
