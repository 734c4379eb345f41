import { isBanned, type User } from '../accounts/index.js';
import type { AdminUserView } from './contract.js';

/** `banned` says whether the ban holds now: one whose end has passed shows as lifted. */
export function adminUserView(u: User, now: number): AdminUserView {
  return {
    uid: u.id,
    username: u.username,
    display_name: u.displayName,
    email: u.email,
    email_verified: u.emailVerified,
    roles: u.roles,
    banned: isBanned(u, now),
  };
}
