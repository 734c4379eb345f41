/** What the accounts feature offers the others; everything else in this folder is its own. */
export { passwordChangedNotice } from './account-notices.js';
export { DEFAULT_ROLES, asciiLower, isBanned, isValidDisplayName, isValidEmail, isValidPassword, isValidRole, isValidUsername } from './account-rules.js';
export type { AccountService } from './account-service.js';
export { SendCodeReply } from './contract.js';
export type { ImportedUser, NewUser, User, UserPatch, UserRepo } from './repository.js';
export { insertUser } from './sql-users.js';
