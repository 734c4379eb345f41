/**
 * `account-center app grant-admin ID scope…` and `app revoke-admin ID [scope…]` (docs/api.md
 * §15.3): the admin API scopes an application's client_credentials tokens may use. Revoking
 * with no scope named revokes them all. Prints the application as the admin API shows it.
 */
import { ADMIN_SCOPES, isAdminScope } from '../features/apps/index.js';
import { ArgumentError, strictArgs, withServices } from './common.js';
import { say } from './messages.js';

const print = (value: unknown) =>
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

export async function appAdminScopesCommand(
  sub: 'grant-admin' | 'revoke-admin',
  args: string[],
): Promise<void> {
  const { positionals } = strictArgs(
    `app ${sub}`,
    args,
    {},
    1 + ADMIN_SCOPES.length,
  );
  const [clientId, ...scopes] = positionals;
  if (!clientId)
    throw new ArgumentError(say('appIdRequired', { command: `app ${sub}` }));
  if (sub === 'grant-admin' && scopes.length === 0)
    throw new ArgumentError(
      say('adminScopeRequired', { scopes: ADMIN_SCOPES.join(', ') }),
    );
  const unknown = scopes.find((s) => !isAdminScope(s));
  if (unknown !== undefined)
    throw new ArgumentError(
      say('adminScopeUnknown', {
        command: `app ${sub}`,
        scope: unknown,
        scopes: ADMIN_SCOPES.join(', '),
      }),
    );
  await withServices(async (s) => {
    const held = (await s.adminConsole.app(clientId)).admin_scopes;
    const next =
      sub === 'grant-admin'
        ? [...held, ...scopes]
        : scopes.length === 0
          ? []
          : held.filter((h) => !scopes.includes(h));
    print(await s.adminConsole.setAppAdminScopes(clientId, next, 'cli'));
  });
}
