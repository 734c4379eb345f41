import type { MigrationPart } from '../../../platform/sql/migrations.js';
import * as m010 from './010-minecraft.js';
import * as m016 from './016-minecraft-joins-textures.js';

/** This part's shares of the migrations, by the names databases record. */
export const minecraftMigrations: readonly MigrationPart[] = [
  { name: '010-minecraft', ...m010 },
  { name: '016-minecraft-joins-textures', ...m016 },
];
