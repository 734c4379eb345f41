import type { roles as zh } from '../zh-CN/roles.js';
import type { Translation } from '../messages.js';

export const roles: Translation<typeof zh> = {
  'admin.roles': 'Roles',
  'roles.intro':
    'Roles decide what people may do in each application: apps read them through the roles scope, and an app may admit only holders of some roles. player and admin are built in and cannot be removed.',
  'roles.addTitle': 'Add or change a role',
  'roles.name': 'Role name',
  'roles.nameHint':
    '1 to 32 lower-case letters, digits, _ or -; it cannot be renamed later',
  'roles.displayName': 'Chinese name',
  'roles.displayNameEn': 'English name',
  'roles.description': 'Description',
  'roles.save': 'Save role',
  'roles.saved': 'Role {name} saved',
  'roles.listTitle': 'All roles',
  'roles.builtin': 'Built in',
  'roles.members': '{n} people',
  'roles.showMembers': 'Show members',
  'roles.noMembers': 'Nobody holds this role yet',
  'roles.moreMembers': 'Only the first {n} are listed',
  'roles.edit': 'Edit',
  'roles.remove': 'Remove',
  'roles.removeConfirm':
    'Remove the role {name}? The {n} people holding it lose it.',
  'roles.removed': 'Role {name} removed',
  'roles.requiredRoles': 'Required roles',
  'roles.requiredRolesHint':
    'Comma-separated; only people holding one of these roles may sign in to this app (administrators too). Empty: everyone may use it.',
  'roles.requiredSaved': 'Required roles of {app} updated',
  'roles.everyone': 'Everyone',
} as const;
