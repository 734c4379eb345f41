import { badParam } from '../../errors/index.js';
import {
  isValidRole,
  MAX_ROLES_PER_USER,
  type RoleRepo,
} from '../accounts/index.js';
import type { App } from './repository.js';

/**
 * Whether the person may use the app (docs/api.md, roles): an app naming required roles admits
 * only holders of at least one of them, administrators included; one naming none admits all.
 */
export function admits(
  app: Pick<App, 'requiredRoles'>,
  user: { roles: readonly string[] },
): boolean {
  return (
    app.requiredRoles.length === 0 ||
    app.requiredRoles.some((r) => user.roles.includes(r))
  );
}

/**
 * A required-roles list as given, without repeats: valid names the catalogue lists, so a typo
 * can not lock everyone out of an app. 400 `参数错误：required_roles` otherwise.
 */
export async function checkRequiredRoles(
  given: readonly string[],
  catalogue: Pick<RoleRepo, 'find'>,
): Promise<string[]> {
  const roles = [...new Set(given)];
  if (roles.length > MAX_ROLES_PER_USER || !roles.every(isValidRole))
    throw badParam('required_roles');
  for (const name of roles)
    if (!(await catalogue.find(name))) throw badParam('required_roles');
  return roles;
}
