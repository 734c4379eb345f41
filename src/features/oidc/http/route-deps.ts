import { Counter } from 'prom-client';
import type { RouteDeps } from '../../services.js';
import type { Metrics } from '../../../platform/http/metrics.js';
import type { Services } from '../../services.js';
import type { OidcServices } from '../oidc-services.js';

/** Token grants and their failures, by grant type and RFC error (or `ok`). */
function grantCounter(metrics: Metrics): Counter<'grant_type' | 'result'> {
  const existing = metrics.registry.getSingleMetric(
    'oidc_token_requests_total',
  );
  if (existing) return existing as Counter<'grant_type' | 'result'>;
  return new Counter({
    name: 'oidc_token_requests_total',
    help: 'OAuth token endpoint requests by grant type and result',
    labelNames: ['grant_type', 'result'] as const,
    registers: [metrics.registry],
  });
}

export interface OidcRouteDeps {
  services: Services;
  provider: OidcServices;
  grantsCounter: Counter<'grant_type' | 'result'>;
}

export function oidcRouteDeps(deps: RouteDeps): OidcRouteDeps {
  return {
    services: deps.services,
    provider: deps.services.oidc,
    grantsCounter: grantCounter(deps.metrics),
  };
}
