import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m001 from './001-initial.js';
import * as m002 from './002-ascii-case-keys.js';
import * as m009 from './009-moderation.js';
import * as m014 from './014-ban-expiry-index.js';
import * as m018 from './018-role-catalogue.js';

/** This part's shares of the migrations, by the names databases record. */
export const accountsMigrations: readonly MigrationPart[] = [
  { name: '001-initial', ...m001 },
  { name: '002-ascii-case-keys', ...m002 },
  { name: '009-moderation', ...m009 },
  { name: '014-ban-expiry-index', ...m014 },
  { name: '018-role-catalogue', ...m018 },
];
