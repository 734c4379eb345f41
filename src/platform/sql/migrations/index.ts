import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001-initial.js';
import * as m002 from './002-ascii-case-keys.js';
import * as m003 from './003-oidc.js';
import * as m005 from './005-second-factors.js';
import * as m004 from './004-account-sessions.js';
import * as m006 from './006-reauth-grants.js';
import * as m007 from './007-refresh-successors.js';
import * as m008 from './008-upstream.js';
import * as m009 from './009-moderation.js';
import * as m010 from './010-minecraft.js';
import * as m011 from './011-abuse.js';
import * as m012 from './012-sign-in-history.js';
import * as m013 from './013-logout-sessions.js';
import * as m014 from './014-ban-expiry-index.js';
import * as m015 from './015-id-token-families.js';
import * as m016 from './016-minecraft-joins-textures.js';
import * as m017 from './017-mail-outbox.js';
import * as m018 from './018-role-catalogue.js';

/** Migrations are listed here in order; names never change once released. */
const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-ascii-case-keys': m002,
  '003-oidc': m003,
  '005-second-factors': m005,
  '004-account-sessions': m004,
  '006-reauth-grants': m006,
  '007-refresh-successors': m007,
  '008-upstream': m008,
  '009-moderation': m009,
  '010-minecraft': m010,
  '011-abuse': m011,
  '012-sign-in-history': m012,
  '013-logout-sessions': m013,
  '014-ban-expiry-index': m014,
  '015-id-token-families': m015,
  '016-minecraft-joins-textures': m016,
  '017-mail-outbox': m017,
  '018-role-catalogue': m018,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
