/**
 * The CLI's own lines in English, for an operator whose locale is not Chinese. Every key has
 * its Chinese line in zh-CN.ts (the type makes a missing one a compile error).
 */
export const CLI_EN = {
  usage: `usage: account-center [command]

  serve [--workers N]                  run the service (the default)
  migrate                              apply database migrations and exit
  user create --username U --password P --email E [--roles a,b]
  user ban U [--reason R] [--until T]  T: a duration (3d, 12h) or an ISO-8601 time with its zone (2030-01-31T00:00:00Z)
  user unban U | user roles U a,b
  user remove-second-factor U          remove the authenticator and passkeys of a locked-out user
  user links U                         the user's linked accounts (sign-in with other accounts)
  app create --owner U --name N --redirect-uri URI [--public] [--client-id ID] [client fields]
  app update ID [--name N] [--redirect-uri URI] [--require-roles a,b] [client fields]
             --require-roles: only holders of one of these roles may use the app ('' for everyone)
             client fields: [--grant-types a,b] [--auth-method M] [--post-logout-redirect-uri URI]
             [--backchannel-logout-uri URI] [--backchannel-logout-session-required true|false]
  app grant-admin ID scope… | app revoke-admin ID [scope…]
                                       admin API scopes of the app's client_credentials tokens:
                                       admin:users:read, admin:users:ban, admin:users:roles
                                       (revoke-admin without a scope revokes all; docs/moderation.md)
  backup FILE | restore FILE           online copy of the database / restore into an empty one
  users export [--format jsonl|csv] [--output FILE]
  users import FILE [--format jsonl|csv]  add users from another system (docs/operations.md)
  keys rotate                          make a new OpenID Connect signing key current
  provider add --id ID --type TYPE --name NAME --client-id X [--client-secret S] [--issuer URL]
               [--scopes "a b"] [--trust-email] [--require-guild ID] [--api-key K] [overrides…]
               [--role-map '{"upstream":"role",…}'] [--guild ID] [--role-claim NAME]
                                       roles from the provider: Discord role ids with --guild,
                                       GitHub org or org/team, an OpenID claim's values (groups)
  provider list | provider update ID [options] | provider enable|disable|remove ID
                                       sign-in providers (docs/upstream.md)
  role list | role add NAME [--name ZH_NAME] [--name-en NAME] [--description D] | role remove NAME
                                       the role catalogue (docs/api.md, roles)
  invite create [--uses N] [--expires 7d] | invite list | invite remove ID
                                       invite codes for REGISTRATION=invite (docs/abuse.md)
  webhook add --url URL [--events a,b] [--description D] [--disabled]
  webhook list | webhook remove ID     endpoints told of bans and other changes (docs/webhooks.md)
  webhook enable ID | webhook disable ID
                                       switch an endpoint on (also one switched off for failing) or off

Configuration comes from the environment (PORT, HOST, DATABASE_URL, JWT_SECRET, …); see README.`,
  migrated: 'migrations applied',
  unknownCommand: 'unknown command: {command}',
  unknownCommandOf: 'unknown {group} command: {sub}',
  subRequired: '{command}: a sub-command is required ({commands})',
  subUnknown: '{command}: unknown sub-command {sub} ({commands})',
  unknownOption: '{command}: unknown option {option}',
  optionNeedsValue: '{command}: option {option} needs a value',
  unexpectedArgument: '{command}: unexpected argument "{argument}"',
  optionRequired: '{command}: --{option} is required',
  usernameRequired: '{command}: a username is required',
  workers: '--workers: a positive integer',
  emptyRole: '{command}: an empty role name in "{text}"',
  badRole: '{command}: role "{role}" is not 1–32 of a-z 0-9 _ -',
  badUsername: '--username: 3–32 of A-Z a-z 0-9 _',
  badPassword: '--password: 8–128 characters',
  badEmail: '--email: a valid e-mail address',
  usernameTaken: 'username already taken',
  emailTaken: 'email already taken',
  roleListRequired: 'user roles U a,b: a comma-separated role list is required',
  appRequired:
    'app create: --owner, --name and --redirect-uri are required (--redirect-uri may be left out with --grant-types client_credentials alone)',
  appUpdateIdRequired: 'app update: exactly one client_id is required',
  appIdRequired: '{command}: an application id is required',
  adminScopeRequired: 'app grant-admin: name at least one scope ({scopes})',
  adminScopeUnknown: '{command}: unknown scope "{scope}" (one of {scopes})',
  trueOrFalse: '--{option}: true or false, got "{value}"',
  oneFile: '{command} FILE: one file is required',
  noSuchFile: '{file}: no such file',
  backupExists:
    '{file} exists: backups are never overwritten, choose a new name',
  backupDamaged: '{file} is damaged: {detail}',
  notOurDatabase: '{file} is not an Account Center database',
  notOurDatabaseBecause: '{file} is not an Account Center database ({error})',
  cannotOpen: 'can not open {path} (DATABASE_URL): {error}',
  restoreNotEmpty:
    'the database of DATABASE_URL is not empty ({users} users): restore into a new file or an empty database',
  toolMissing:
    "{tool} is not installed: install the PostgreSQL client tools (the server's major version or newer)",
  toolFailed: '{tool} failed: {error}',
  dumpUnreadable: 'the dump {file} can not be read back: {error}',
  notOurDump: '{file} is not an Account Center dump: {error}',
  noUsersTable: 'no users table',
  inviteUses: 'invite create: --uses must be a positive integer, got "{value}"',
  banUntil:
    'user ban: --until must be a duration such as 3d, 12h or 30m, or an ISO-8601 time with its zone after now (2030-01-31T00:00:00Z), got "{value}"',
  baseUrlNotSet:
    "BASE_URL is not set for this command, so callback_url is built on {url}; run it with the server's BASE_URL to print the address to register at the provider",
  webhookPrivate:
    'webhook add: {url} is a loopback, private or link-local address; the server posts there only with WEBHOOK_ALLOW_PRIVATE=on, which must be set for the server and for this command',
  inviteExpires:
    'invite create: --expires must be a duration such as 7d, 12h or 30m, got "{value}"',
  inviteIdRequired: 'invite remove: an invite id is required',
  roleNameRequired: '{command}: a role name is required',
  trustEmailBoth:
    '{command}: --trust-email and --no-trust-email exclude each other',
  providerIdRequired: '{command}: a provider id is required',
  nothingToChange: '{command}: nothing to change',
  webhookIdRequired: 'webhook remove: an endpoint id is required',
  webhookIdRequiredFor: '{command}: an endpoint id is required',
  transferFormat: '--format: jsonl or csv',
  exported: 'exported {n} users',
  importFileRequired: 'users import FILE: one input file is required',
  batchSize: '--batch-size: 1 to 2000',
  lineRefused: 'line {line}: {reason} (file refused)',
  nothingImported:
    'nothing imported: {n} row(s) hold password hashes over the cost limits (docs/operations.md)',
  lineSkipped: 'line {line}: {reason} (skipped)',
  progressImport: 'import',
  progressStats: '{rows} rows  {rate} rows/s  ETA {eta}',
} as const;

export type CliKey = keyof typeof CLI_EN;
