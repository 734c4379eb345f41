import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m003 from './003-oidc.js';
import * as m007 from './007-refresh-successors.js';
import * as m008 from './008-upstream.js';
import * as m013 from './013-logout-sessions.js';
import * as m015 from './015-id-token-families.js';

/** This part's shares of the migrations, by the names databases record. */
export const oidcMigrations: readonly MigrationPart[] = [
  { name: '003-oidc', ...m003 },
  { name: '007-refresh-successors', ...m007 },
  { name: '008-upstream', ...m008 },
  { name: '013-logout-sessions', ...m013 },
  { name: '015-id-token-families', ...m015 },
];
