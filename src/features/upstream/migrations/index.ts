import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m008 from './008-upstream.js';
import * as m019 from './019-upstream-role-maps.js';

/** This part's shares of the migrations, by the names databases record. */
export const upstreamMigrations: readonly MigrationPart[] = [
  { name: '008-upstream', ...m008 },
  { name: '019-upstream-role-maps', ...m019 },
];
