import type { AbuseTables } from '../features/abuse/tables.js';
import type { AccountsTables } from '../features/accounts/tables.js';
import type { AppsTables } from '../features/apps/tables.js';
import type { AuditTables } from '../features/audit/tables.js';
import type { AuthorizationTables } from '../features/authorization/tables.js';
import type { DeviceTables } from '../features/device/tables.js';
import type { MinecraftTables } from '../features/minecraft/tables.js';
import type { ModerationTables } from '../features/moderation/tables.js';
import type { OidcTables } from '../features/oidc/tables.js';
import type { ReauthTables } from '../features/reauth/tables.js';
import type { SecondFactorTables } from '../features/second-factor/tables.js';
import type { SessionsTables } from '../features/sessions/tables.js';
import type { SignInHistoryTables } from '../features/sign-in-history/tables.js';
import type { UpstreamTables } from '../features/upstream/tables.js';
import type { MailTables } from '../platform/mail/tables.js';

/**
 * Every table of the database: each feature declares the tables it owns, and each repository
 * is handed this database narrowed to the tables it reads (platform/sql/narrow.ts).
 */
export type Database = AccountsTables &
  SessionsTables &
  AppsTables &
  AuthorizationTables &
  DeviceTables &
  AuditTables &
  OidcTables &
  SecondFactorTables &
  ReauthTables &
  UpstreamTables &
  ModerationTables &
  MinecraftTables &
  AbuseTables &
  SignInHistoryTables &
  MailTables;
