import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MIGRATION_NAMES,
  migrationProvider,
} from '../../src/app/migrations.js';
import { isPostgresUrl } from '../helpers/db.js';
import { migratedSchemaShape } from '../helpers/schema-shape.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const kind = isPostgresUrl(pgUrl) ? 'postgres' : 'sqlite';

/** The names databases made before the features owned their migrations have recorded. */
const RELEASED = [
  '001-initial',
  '002-ascii-case-keys',
  '003-oidc',
  '004-account-sessions',
  '005-second-factors',
  '006-reauth-grants',
  '007-refresh-successors',
  '008-upstream',
  '009-moderation',
  '010-minecraft',
  '011-abuse',
  '012-sign-in-history',
  '013-logout-sessions',
  '014-ban-expiry-index',
  '015-id-token-families',
  '016-minecraft-joins-textures',
  '017-mail-outbox',
];

describe(`migrations (${kind})`, () => {
  it("the features' shares compose the released migrations, by name and in order", async () => {
    expect(MIGRATION_NAMES.slice(0, RELEASED.length)).toEqual(RELEASED);
    expect([...MIGRATION_NAMES].sort()).toEqual(MIGRATION_NAMES);
    expect(Object.keys(await migrationProvider.getMigrations())).toEqual(
      MIGRATION_NAMES,
    );
  });

  it('a fresh database holds the tables, columns and indexes released databases hold', async () => {
    // Captured from a database migrated by the released migrations before they were spread
    // over the features, and extended by each later migration in the commit that adds it.
    const released = JSON.parse(
      readFileSync(
        new URL(`./fixtures/schema-${kind}.json`, import.meta.url),
        'utf8',
      ),
    );
    const shape = await migratedSchemaShape();
    expect(shape.migrations).toEqual(MIGRATION_NAMES);
    expect(shape).toEqual(released);
  });
});
