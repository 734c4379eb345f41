/**
 * A failure of the provider's answer as its page. What the provider said goes into the audit
 * trail with the provider as target, where the providers page finds its last error
 * (provider-errors.ts).
 */
import type { Caller } from '../../platform/http/typed-scope.js';
import { problemPage, type FlowFailurePage } from './flow-messages.js';
import type { FlowDeps } from './flow-types.js';
import { UpstreamError, type ActiveProvider } from './protocols/index.js';

/** The audit target of a provider's failures. */
export const providerTarget = (providerId: string) => `provider:${providerId}`;

const method = (providerId: string) => `upstream:${providerId}`;

/** A protocol failure as its page; only an unexpected fault is logged as one. */
export async function failurePage(
  ctx: Pick<FlowDeps, 'log' | 'audit'>,
  err: unknown,
  provider: ActiveProvider,
  caller: Caller | null,
): Promise<FlowFailurePage> {
  const kind = err instanceof UpstreamError ? err.kind : 'provider';
  if (err instanceof UpstreamError)
    ctx.log.info(
      { provider: provider.record.id, kind, reason: err.message },
      'upstream sign-in refused',
    );
  else
    ctx.log.error(
      { err, provider: provider.record.id },
      'upstream sign-in failed',
    );
  // What the provider said goes into the audit trail, where an administrator looks for why.
  const error =
    err instanceof UpstreamError
      ? err.message.slice(0, 300)
      : 'unexpected failure';
  if (caller)
    await ctx.audit.record('login.failure', {
      ip: caller.ip,
      target: providerTarget(provider.record.id),
      detail: { method: method(provider.record.id), reason: kind, error },
    });
  return problemPage(kind, provider.record.name);
}
