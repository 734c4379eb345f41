/** What the accounts feature offers the others; everything else in this folder is its own. */
export {
  DEFAULT_ROLES,
  EMAIL_CODE_LENGTH,
  EMAIL_CODE_MAX_TRIES,
  EMAIL_CODE_TTL_S,
  EMAIL_RESEND_AFTER_S,
  asciiLower,
  isBanned,
  isEmailPurpose,
  isValidDisplayName,
  isValidEmail,
  isValidPassword,
  isValidRole,
  isValidUsername,
} from './account-rules.js';
export type {
  EmailCodeRepo,
  EmailPurpose,
  ImportedUser,
  NewUser,
  User,
  UserPatch,
  UserRepo,
} from './repository.js';
export type { UserLookup } from './user-lookup.js';
export { emailCodeHasher } from './email-code-hash.js';
export { insertUser, type UserWriteTables } from './insert-user.js';
export type { AccountsTables } from './tables.js';
export {
  ADMIN_ROLE,
  MAX_ROLES_PER_USER,
  RoleAssignment,
} from './role-assignment.js';
export type {
  RoleActor,
  RoleAssignmentDeps,
  RoleAudit,
} from './role-assignment.js';
export type {
  CatalogueRole,
  RoleEntry,
  RoleRepo,
} from './role-repository.js';
