/**
 * A provider's last failure, for the providers page: the newest audit entry whose target is
 * the provider (flow-failure.ts, role-map-sync.ts), with what the provider said.
 */
import type { AuditRepo } from '../audit/index.js';
import type { ProviderView } from './contract.js';
import { providerTarget } from './flow-failure.js';

type AuditReader = Pick<AuditRepo, 'list'>;

export class LastErrors {
  constructor(private readonly audit: AuditReader) {}

  async of(providerId: string): Promise<ProviderView['last_error']> {
    const { entries } = await this.audit.list(
      { target: providerTarget(providerId) },
      0,
      1,
    );
    const entry = entries[0];
    if (!entry) return null;
    const error = entry.detail.error;
    return {
      at: Math.floor(entry.at / 1000),
      action: entry.action,
      message:
        typeof error === 'string' ? error : String(entry.detail.reason ?? ''),
    };
  }
}
