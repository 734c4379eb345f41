import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m001 from './001-initial.js';
import * as m003 from './003-oidc.js';
import * as m004 from './004-account-sessions.js';
import * as m009 from './009-moderation.js';
import * as m018 from './018-role-catalogue.js';

/** This part's shares of the migrations, by the names databases record. */
export const appsMigrations: readonly MigrationPart[] = [
  { name: '001-initial', ...m001 },
  { name: '003-oidc', ...m003 },
  { name: '004-account-sessions', ...m004 },
  { name: '009-moderation', ...m009 },
  { name: '018-role-catalogue', ...m018 },
];
