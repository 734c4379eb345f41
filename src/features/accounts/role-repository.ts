/** The role catalogue (docs/api.md, roles): what the use cases need from storage. */
import type { User } from './repository.js';

export interface CatalogueRole {
  /** 1–32 of `[a-z0-9_-]` (isValidRole). */
  name: string;
  displayName: string;
  displayNameEn: string;
  description: string;
  /** `player` and `admin`: always there, never removed. */
  builtin: boolean;
}

export interface RoleEntry extends CatalogueRole {
  /** How many users hold it. */
  members: number;
}

export interface RoleRepo {
  /** Every role, built-in first (player, admin), then by name, each with its holders' count. */
  list(): Promise<RoleEntry[]>;
  find(name: string): Promise<CatalogueRole | undefined>;
  /** Creates the role, or changes the display names and description of one already listed. */
  save(
    role: Omit<CatalogueRole, 'builtin'>,
    now: number,
  ): Promise<CatalogueRole>;
  /** Removes a role that is not built in; false when there was none such. */
  remove(name: string): Promise<boolean>;
  /** Up to `limit` users holding the role, by id. */
  holders(name: string, limit: number): Promise<User[]>;
}
