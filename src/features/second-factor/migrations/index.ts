import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m005 from './005-second-factors.js';

/** This part's shares of the migrations, by the names databases record. */
export const secondFactorMigrations: readonly MigrationPart[] = [
  { name: '005-second-factors', ...m005 },
];
