import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m012 from './012-sign-in-history.js';

/** This part's shares of the migrations, by the names databases record. */
export const signInHistoryMigrations: readonly MigrationPart[] = [
  { name: '012-sign-in-history', ...m012 },
];
