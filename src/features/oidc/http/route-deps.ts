import { Counter } from 'prom-client';
import type { Metrics } from '../../../platform/http/metrics.js';
import type { DeviceService } from '../../device/index.js';
import type { AuthGuards } from '../../sessions/index.js';
import type { OidcServices } from '../oidc-services.js';

/** Token grants and their failures, by grant type and RFC error (or `ok`). */
function grantCounter(
  metrics: Pick<Metrics, 'registry'>,
): Counter<'grant_type' | 'result'> {
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

/** What the provider's endpoints are given. */
export interface OidcPluginDeps {
  services: {
    oidc: OidcServices;
    /** The device flow starts here, for the device authorization endpoint. */
    device: Pick<DeviceService, 'start'>;
  };
  guards: Pick<AuthGuards, 'firstParty'>;
  metrics: Pick<Metrics, 'registry'>;
}

/** What the token side's endpoints are given. */
export interface OidcRouteDeps {
  services: OidcPluginDeps['services'];
  provider: OidcServices;
  grantsCounter: Counter<'grant_type' | 'result'>;
}

export function oidcRouteDeps(deps: OidcPluginDeps): OidcRouteDeps {
  return {
    services: deps.services,
    provider: deps.services.oidc,
    grantsCounter: grantCounter(deps.metrics),
  };
}
