import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m009 from './009-moderation.js';
import * as m021 from './021-outbox-pending.js';

/** This part's shares of the migrations, by the names databases record. */
export const moderationMigrations: readonly MigrationPart[] = [
  { name: '009-moderation', ...m009 },
  { name: '021-outbox-pending', ...m021 },
];
