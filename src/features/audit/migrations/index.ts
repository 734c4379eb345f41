import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m001 from './001-initial.js';

/** This part's shares of the migrations, by the names databases record. */
export const auditMigrations: readonly MigrationPart[] = [
  { name: '001-initial', ...m001 },
];
