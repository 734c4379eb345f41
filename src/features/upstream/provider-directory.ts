import { SecretBox } from '../../platform/crypto/secret-box.js';
import type { ProviderRecord, UpstreamProviderRepo } from './repository.js';
import type { ActiveProvider } from './protocols/index.js';

/**
 * A copy younger than this is used as is; an older one is read again before use. Changes made
 * by another instance or the CLI are thus seen within it (docs/api.md §14.1 allows 5 s); this
 * instance's own changes drop the copy at once.
 */
export const PROVIDERS_FRESH_MS = 2000;

/**
 * The configured providers as every sign-in page and flow reads them: the few rows kept in
 * memory, re-read every couple of seconds, and their secrets opened only when a flow needs them.
 */
export class ProviderDirectory {
  private copy: { rows: ProviderRecord[]; at: number } | undefined;
  private loading: Promise<ProviderRecord[]> | undefined;
  private generation = 0;
  private readonly secrets: SecretBox;

  constructor(
    private readonly repo: UpstreamProviderRepo,
    jwtSecret: string,
    private readonly now: () => number,
    /** Told when a stored secret cannot be opened (JWT_SECRET changed since it was sealed). */
    private readonly onUnreadable: (
      providerId: string,
      err: unknown,
    ) => void = () => undefined,
  ) {
    this.secrets = new SecretBox(jwtSecret, 'upstream-provider-secret');
  }

  seal(secret: string): string {
    return this.secrets.seal(secret);
  }

  /** Every provider, enabled or not. */
  async all(): Promise<ProviderRecord[]> {
    if (this.copy && this.now() - this.copy.at < PROVIDERS_FRESH_MS)
      return this.copy.rows;
    return this.load();
  }

  /** The providers whose buttons the sign-in pages show, in the order they were added. */
  async enabled(): Promise<ProviderRecord[]> {
    return (await this.all()).filter((p) => p.enabled);
  }

  /**
   * An enabled provider with its secrets opened, or undefined (unknown, disabled, removed, or
   * its secret unreadable: then the administrator must set it again).
   */
  async active(id: string): Promise<ActiveProvider | undefined> {
    const record = (await this.all()).find((p) => p.id === id);
    if (!record?.enabled) return undefined;
    try {
      return {
        record,
        ...(record.clientSecretEnc !== null && {
          clientSecret: this.secrets.open(record.clientSecretEnc),
        }),
        ...(record.apiKeyEnc !== null && {
          apiKey: this.secrets.open(record.apiKeyEnc),
        }),
      };
    } catch (err) {
      this.onUnreadable(id, err);
      return undefined;
    }
  }

  /** This instance changed a provider: the next read goes to the database. */
  changed(): void {
    this.generation += 1;
    this.copy = undefined;
    this.loading = undefined;
  }

  private load(): Promise<ProviderRecord[]> {
    if (this.loading) return this.loading;
    const generation = this.generation;
    const at = this.now();
    const pending = this.repo
      .list()
      .then((rows) => {
        if (generation === this.generation) this.copy = { rows, at };
        return rows;
      })
      .finally(() => {
        if (this.loading === pending) this.loading = undefined;
      });
    this.loading = pending;
    return pending;
  }
}
