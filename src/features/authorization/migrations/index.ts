import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m001 from './001-initial.js';
import * as m003 from './003-oidc.js';
import * as m008 from './008-upstream.js';
import * as m013 from './013-logout-sessions.js';

/** This part's shares of the migrations, by the names databases record. */
export const authorizationMigrations: readonly MigrationPart[] = [
  { name: '001-initial', ...m001 },
  { name: '003-oidc', ...m003 },
  { name: '008-upstream', ...m008 },
  { name: '013-logout-sessions', ...m013 },
];
