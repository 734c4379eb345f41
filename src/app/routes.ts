import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/index.js';
import type { Metrics } from '../platform/http/metrics.js';
import type { Services } from './all-services.js';
import { authGuards } from '../features/sessions/bearer-guard.js';
import * as system from '../features/system/index.js';
import * as sessions from '../features/sessions/index.js';
import * as signIn from '../features/sign-in/index.js';
import * as admin from '../features/admin/index.js';
import * as audit from '../features/audit/index.js';
import * as apps from '../features/apps/index.js';
import * as authorization from '../features/authorization/index.js';
import * as device from '../features/device/index.js';
import * as secondFactor from '../features/second-factor/index.js';
import * as pages from '../features/pages/index.js';
import * as accountSettings from '../features/account-settings/index.js';
import * as upstream from '../features/upstream/index.js';
import * as signInHistory from '../features/sign-in-history/index.js';
import * as minecraft from '../features/minecraft/index.js';
import * as abuse from '../features/abuse/index.js';
import * as moderation from '../features/moderation/index.js';
import * as oidc from '../features/oidc/index.js';

/**
 * Hands each feature the services and guards its routes use, and nothing else. Each feature's
 * routes live in scopes of their own, registered in this order.
 */
export async function registerFeatures(
  app: FastifyInstance,
  config: Config,
  services: Services,
  metrics: Metrics,
): Promise<void> {
  const guards = authGuards(
    services.tokens,
    config.centerAppId,
    (authorization, scope) =>
      services.oidc.adminClients.clientFor(authorization, scope),
  );
  // Administrators name the account an admin route acts on; the admin feature finds it.
  const users = services.admin;
  await system.register(app, { services: { ready: services.ready } });
  await sessions.register(app, {
    services: { session: services.session },
    guards,
  });
  await signIn.register(app, {
    services: {
      accounts: services.accounts,
      accountEmails: services.accountEmails,
    },
    guards,
    metrics,
  });
  await admin.register(app, {
    services: { admin: services.admin, adminConsole: services.adminConsole },
    guards,
    metrics,
  });
  await audit.register(app, { services: { audit: services.audit }, guards });
  await apps.register(app, { services: { apps: services.apps }, guards });
  await authorization.register(app, {
    services: { authorization: services.authorization },
    guards,
  });
  await device.register(app, { services: { device: services.device }, guards });
  await secondFactor.register(app, {
    services: {
      secondFactor: services.secondFactor,
      passkeys: services.passkeys,
      reauth: services.reauth,
      users,
    },
    guards,
    metrics,
  });
  await pages.register(app, {
    services: {
      accounts: services.accounts,
      abuse: services.abuse,
      minecraft: services.minecraft,
    },
  });
  await accountSettings.register(app, {
    services: {
      settings: services.settings,
      accountEmails: services.accountEmails,
      apps: services.apps,
    },
    guards,
  });
  await upstream.register(app, {
    services: { upstream: services.upstream, users },
    guards,
  });
  await signInHistory.register(app, {
    services: { signInHistory: services.signInHistory, users },
    guards,
  });
  await minecraft.register(app, {
    services: { minecraft: services.minecraft, users },
    guards,
  });
  await abuse.register(app, { services: { abuse: services.abuse }, guards });
  await moderation.register(app, {
    services: { webhooks: services.webhooks },
    guards,
  });
  await oidc.register(app, {
    services: { oidc: services.oidc, device: services.device },
    guards,
    metrics,
  });
}
