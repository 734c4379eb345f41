import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m001 from './001-initial.js';
import * as m020 from './020-audit-by-target.js';

/** This part's shares of the migrations, by the names databases record. */
export const auditMigrations: readonly MigrationPart[] = [
  { name: '001-initial', ...m001 },
  { name: '020-audit-by-target', ...m020 },
];
