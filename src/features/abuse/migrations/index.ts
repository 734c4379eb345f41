import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m011 from './011-abuse.js';

/** This part's shares of the migrations, by the names databases record. */
export const abuseMigrations: readonly MigrationPart[] = [
  { name: '011-abuse', ...m011 },
];
