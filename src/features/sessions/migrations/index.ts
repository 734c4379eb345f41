import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m001 from './001-initial.js';
import * as m004 from './004-account-sessions.js';
import * as m008 from './008-upstream.js';

/** This part's shares of the migrations, by the names databases record. */
export const sessionsMigrations: readonly MigrationPart[] = [
  { name: '001-initial', ...m001 },
  { name: '004-account-sessions', ...m004 },
  { name: '008-upstream', ...m008 },
];
