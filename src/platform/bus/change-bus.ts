/**
 * Tells every part of this process (and, with cluster IPC or Redis, every other instance)
 * that a user, a token or an application changed, so per-instance caches drop stale state.
 */
export type ChangeEvent =
  | { type: 'user'; id: number }
  | { type: 'revoked'; jti: string }
  | { type: 'app'; clientId: string };

export interface ChangeBus {
  publish(event: ChangeEvent): void;
  subscribe(listener: (event: ChangeEvent) => void): void;
  close(): Promise<void>;
}

/** In-process delivery; other buses wrap it and forward events from outside. */
export class LocalChangeBus implements ChangeBus {
  private readonly listeners: Array<(event: ChangeEvent) => void> = [];

  publish(event: ChangeEvent): void {
    this.deliver(event);
  }

  /** Hands an event that arrived from another instance to local listeners only. */
  deliver(event: ChangeEvent): void {
    for (const l of this.listeners) l(event);
  }

  subscribe(listener: (event: ChangeEvent) => void): void {
    this.listeners.push(listener);
  }

  async close(): Promise<void> {}
}
