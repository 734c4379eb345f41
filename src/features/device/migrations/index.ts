import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m001 from './001-initial.js';
import * as m003 from './003-oidc.js';

/** This part's shares of the migrations, by the names databases record. */
export const deviceMigrations: readonly MigrationPart[] = [
  { name: '001-initial', ...m001 },
  { name: '003-oidc', ...m003 },
];
