/**
 * `account-center app create|update|grant-admin|revoke-admin` (docs/api.md §8, §15.3):
 * registering an application, changing its OpenID Connect fields and required roles (`update`
 * acts as the app's owner) and its admin API scopes, from the command line.
 */
import { parseArgs } from 'node:util';
import { ArgumentError, UsageError, withServices } from './common.js';
import { say } from './messages.js';
import { appAdminScopesCommand } from './app-admin-scopes.js';

const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((g) => g.trim())
    .filter(Boolean);

/** The docs/api.md §12.2 client fields both sub-commands take. */
const CLIENT_OPTIONS = {
  'grant-types': { type: 'string' },
  'auth-method': { type: 'string' },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  // Back-Channel Logout 1.0: an empty URI removes it.
  'backchannel-logout-uri': { type: 'string' },
  'backchannel-logout-session-required': { type: 'string' },
} as const;

type ClientValues = {
  [K in keyof typeof CLIENT_OPTIONS]?: (typeof CLIENT_OPTIONS)[K] extends {
    multiple: true;
  }
    ? string[]
    : string;
};

function yesNo(option: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false')
    throw new ArgumentError(say('trueOrFalse', { option, value }));
  return value === 'true';
}

function clientFields(v: ClientValues) {
  return {
    grant_types: list(v['grant-types']),
    token_endpoint_auth_method: v['auth-method'],
    post_logout_redirect_uris: v['post-logout-redirect-uri'],
    backchannel_logout_uri: v['backchannel-logout-uri'],
    backchannel_logout_session_required: yesNo(
      'backchannel-logout-session-required',
      v['backchannel-logout-session-required'],
    ),
  };
}

async function create(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      owner: { type: 'string' },
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      public: { type: 'boolean' },
      'client-id': { type: 'string' },
      ...CLIENT_OPTIONS,
    },
  });
  const { owner, name } = values;
  const fields = clientFields(values);
  // An app holding client_credentials alone sends no browser anywhere: no redirect URI to ask for.
  const machineOnly =
    fields.grant_types !== undefined &&
    fields.grant_types.length > 0 &&
    fields.grant_types.every((g) => g === 'client_credentials');
  const redirectUris = values['redirect-uri'] ?? (machineOnly ? [] : undefined);
  if (!owner || !name || redirectUris === undefined)
    throw new UsageError(say('appRequired'));
  await withServices(async (s) => {
    const user = await s.admin.userNamed(owner);
    print(
      await s.apps.create(
        { user, ip: null },
        {
          display_name: name,
          redirect_uris: redirectUris,
          client_type: values.public ? 'public' : 'confidential',
          client_id: values['client-id'],
          ...fields,
        },
      ),
    );
  });
}

async function update(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      // Any one of these roles admits a person; '' admits everyone (docs/api.md, roles).
      'require-roles': { type: 'string' },
      ...CLIENT_OPTIONS,
    },
  });
  const [clientId, ...extra] = positionals;
  if (!clientId || extra.length > 0)
    throw new UsageError(say('appUpdateIdRequired'));
  const fields = clientFields(values);
  await withServices(async (s) => {
    const owner = await s.admin.userNamed(
      (await s.adminConsole.app(clientId)).owner,
    );
    print(
      await s.apps.update(
        { user: owner, ip: null },
        {
          client_id: clientId,
          display_name: values.name,
          redirect_uris: values['redirect-uri'],
          required_roles: list(values['require-roles']),
          ...fields,
        },
      ),
    );
  });
}

export async function appCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'create') return create(rest);
  if (sub === 'update') return update(rest);
  if (sub === 'grant-admin' || sub === 'revoke-admin')
    return appAdminScopesCommand(sub, rest);
  throw new UsageError(
    say('unknownCommandOf', { group: 'app', sub: sub ?? '' }),
  );
}
