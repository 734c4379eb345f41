import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m008 from './008-upstream.js';

/** This part's shares of the migrations, by the names databases record. */
export const upstreamMigrations: readonly MigrationPart[] = [
  { name: '008-upstream', ...m008 },
];
