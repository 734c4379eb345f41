/** The Roles tab of the admin console and the required roles of an app. */
export const roles = {
  'admin.roles': '角色',
  'roles.intro':
    '角色决定一个人在各个应用中能做什么：应用通过 roles 范围读取角色，也可以只允许持有某些角色的人使用。player 与 admin 为内置角色，不能删除。',
  'roles.addTitle': '添加或修改角色',
  'roles.name': '角色名',
  'roles.nameHint': '1 到 32 位小写字母、数字、_ 或 -，创建后不能改名',
  'roles.displayName': '中文名称',
  'roles.displayNameEn': '英文名称',
  'roles.description': '说明',
  'roles.save': '保存角色',
  'roles.saved': '角色 {name} 已保存',
  'roles.listTitle': '所有角色',
  'roles.builtin': '内置',
  'roles.members': '{n} 人',
  'roles.showMembers': '查看成员',
  'roles.noMembers': '还没有人持有这个角色',
  'roles.moreMembers': '只列出前 {n} 人',
  'roles.edit': '修改',
  'roles.remove': '删除',
  'roles.removeConfirm': '删除角色 {name}？持有它的 {n} 人都会失去这个角色。',
  'roles.removed': '角色 {name} 已删除',
  'roles.requiredRoles': '需要的角色',
  'roles.requiredRolesHint':
    '用逗号分隔；只有持有其中任意一个角色的人能登录此应用（管理员也不例外）。留空表示所有人都可以使用。',
  'roles.requiredSaved': '已更新 {app} 需要的角色',
  'roles.everyone': '所有人',
} as const;
