import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m006 from './006-reauth-grants.js';

/** This part's shares of the migrations, by the names databases record. */
export const reauthMigrations: readonly MigrationPart[] = [
  { name: '006-reauth-grants', ...m006 },
];
