import { UniqueViolation } from './unique-violation.js';

/** Column or constraint names that map to the public field a duplicate concerns. */
const FIELDS: Array<[RegExp, string]> = [
  // Before the generic names below: these tables have columns such as `client_id` and `user_id` too.
  [/minecraft_profiles/, 'minecraft_name'],
  [/upstream_providers/, 'provider_id'],
  [/upstream_links_user|upstream_links\.user_id/, 'upstream_user'],
  [/upstream_links/, 'upstream_subject'],
  [/username/, 'username'],
  [/email/, 'email'],
  [/client_id|apps_pkey/, 'client_id'],
  [/user_code/, 'user_code'],
  [/credential_id|passkeys_pkey/, 'credential_id'],
];

/** Turns a backend's unique-constraint error into `UniqueViolation`; rethrows anything else. */
export function mapUnique(err: unknown): never {
  const e = err as { code?: string; constraint?: string; message?: string };
  const isUnique =
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    e?.code === '23505';
  if (isUnique) {
    const where = `${e.constraint ?? ''} ${e.message ?? ''}`;
    for (const [re, field] of FIELDS)
      if (re.test(where)) throw new UniqueViolation(field);
    throw new UniqueViolation('unknown');
  }
  throw err;
}
