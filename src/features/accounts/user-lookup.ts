import type { User } from './repository.js';

/** Finds the account an administrator names, or refuses with 404 `用户不存在`. */
export interface UserLookup {
  userNamed(username: string): Promise<User>;
}
