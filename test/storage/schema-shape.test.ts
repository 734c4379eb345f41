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

/** The names existing databases have recorded, in the order they ran. */
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
    expect(MIGRATION_NAMES).toEqual(RELEASED);
    expect(Object.keys(await migrationProvider.getMigrations())).toEqual(
      RELEASED,
    );
  });

  it('a fresh database holds the tables, columns and indexes released databases hold', async () => {
    // Captured from a database migrated by the released migrations, before they were spread
    // over the features: the same statements must still build the same schema.
    const released = JSON.parse(
      readFileSync(
        new URL(`./fixtures/schema-${kind}.json`, import.meta.url),
        'utf8',
      ),
    );
    const shape = await migratedSchemaShape();
    expect(shape.migrations).toEqual(RELEASED);
    expect(shape).toEqual(released);
  });
});
