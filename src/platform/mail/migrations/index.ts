import type { MigrationPart } from '../../sql/migrations.js';
import * as m017 from './017-mail-outbox.js';

/** This part's shares of the migrations, by the names databases record. */
export const mailMigrations: readonly MigrationPart[] = [
  { name: '017-mail-outbox', ...m017 },
];
