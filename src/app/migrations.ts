import { composeMigrations } from '../platform/sql/migrations.js';
import { abuseMigrations } from '../features/abuse/migrations/index.js';
import { accountsMigrations } from '../features/accounts/migrations/index.js';
import { appsMigrations } from '../features/apps/migrations/index.js';
import { auditMigrations } from '../features/audit/migrations/index.js';
import { authorizationMigrations } from '../features/authorization/migrations/index.js';
import { deviceMigrations } from '../features/device/migrations/index.js';
import { minecraftMigrations } from '../features/minecraft/migrations/index.js';
import { moderationMigrations } from '../features/moderation/migrations/index.js';
import { oidcMigrations } from '../features/oidc/migrations/index.js';
import { reauthMigrations } from '../features/reauth/migrations/index.js';
import { secondFactorMigrations } from '../features/second-factor/migrations/index.js';
import { sessionsMigrations } from '../features/sessions/migrations/index.js';
import { signInHistoryMigrations } from '../features/sign-in-history/migrations/index.js';
import { upstreamMigrations } from '../features/upstream/migrations/index.js';
import { mailMigrations } from '../platform/mail/migrations/index.js';

/**
 * Every migration, in the order it runs. Databases record these names: a released name never
 * changes and a new one goes at the end.
 */
export const MIGRATION_NAMES: readonly string[] = [
  '001-initial',
  '002-ascii-case-keys',
  '003-oidc',
  '004-account-sessions',
  '005-second-factors',
  '006-reauth-grants',
  '007-refresh-successors',
  '008-upstream',
  '009-moderation',
  '010-minecraft',
  '011-abuse',
  '012-sign-in-history',
  '013-logout-sessions',
  '014-ban-expiry-index',
  '015-id-token-families',
  '016-minecraft-joins-textures',
  '017-mail-outbox',
  '018-role-catalogue',
  '019-upstream-role-maps',
  '020-audit-by-target',
  '021-outbox-pending',
];

/** The features' shares; those of one migration run in this order. */
export const migrationProvider = composeMigrations(MIGRATION_NAMES, [
  ...accountsMigrations,
  ...sessionsMigrations,
  ...appsMigrations,
  ...authorizationMigrations,
  ...deviceMigrations,
  ...auditMigrations,
  ...oidcMigrations,
  ...secondFactorMigrations,
  ...reauthMigrations,
  ...upstreamMigrations,
  ...moderationMigrations,
  ...minecraftMigrations,
  ...abuseMigrations,
  ...signInHistoryMigrations,
  ...mailMigrations,
]);
