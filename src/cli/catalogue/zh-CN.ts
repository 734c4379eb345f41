import type { CliKey } from './en.js';

/** The CLI's own lines in Simplified Chinese, for an operator whose locale is Chinese. */
export const CLI_ZH_CN: { readonly [K in CliKey]: string } = {
  usage: `用法：account-center [命令]

  serve [--workers N]                  运行服务（默认命令）
  migrate                              执行数据库迁移后退出
  user create --username U --password P --email E [--roles a,b]
  user ban U [--reason R] [--until T]  T：时长（3d、12h）或带时区的 ISO-8601 时间（2030-01-31T00:00:00Z）
  user unban U | user roles U a,b
  user remove-second-factor U          为无法登录的用户移除身份验证器和通行密钥
  user links U                         用户绑定的第三方账号
  app create --owner U --name N --redirect-uri URI [--public] [--client-id ID] [客户端字段]
  app update ID [--name N] [--redirect-uri URI] [--require-roles a,b] [客户端字段]
             --require-roles：只有持有其中一个角色的人能使用该应用（'' 表示所有人）
             客户端字段：[--grant-types a,b] [--auth-method M] [--post-logout-redirect-uri URI]
             [--backchannel-logout-uri URI] [--backchannel-logout-session-required true|false]
  app grant-admin ID scope… | app revoke-admin ID [scope…]
                                       应用 client_credentials 令牌可用的管理接口权限：
                                       admin:users:read、admin:users:ban、admin:users:roles
                                       （revoke-admin 不带权限时全部收回；docs/moderation.md）
  backup FILE | restore FILE           在线备份数据库 / 恢复到空数据库
  users export [--format jsonl|csv] [--output FILE]
  users import FILE [--format jsonl|csv]  从其他系统导入用户（docs/operations.md）
  keys rotate                          启用新的 OpenID Connect 签名密钥
  provider add --id ID --type TYPE --name NAME --client-id X [--client-secret S] [--issuer URL]
               [--scopes "a b"] [--trust-email] [--require-guild ID] [--api-key K] [其他覆盖项…]
               [--role-map '{"上游":"角色",…}'] [--guild ID] [--role-claim NAME]
                                       由登录方式授予角色：Discord 身份组 id（配合 --guild）、
                                       GitHub 组织或 组织/团队、OpenID 声明的值（默认 groups）
  provider list | provider update ID [选项] | provider enable|disable|remove ID
                                       登录方式（docs/upstream.md）
  role list | role add NAME [--name 显示名] [--name-en NAME] [--description D] | role remove NAME
                                       角色列表（docs/api.md，角色）
  invite create [--uses N] [--expires 7d] | invite list | invite remove ID
                                       REGISTRATION=invite 时使用的邀请码（docs/abuse.md）
  webhook add --url URL [--events a,b] [--description D] [--disabled]
  webhook list | webhook remove ID     接收封禁等变更通知的地址（docs/webhooks.md）
  webhook enable ID | webhook disable ID
                                       启用（包括因连续失败被停用的）或停用一个地址

配置来自环境变量（PORT、HOST、DATABASE_URL、JWT_SECRET 等），详见 README。`,
  migrated: '数据库迁移已完成',
  unknownCommand: '未知命令：{command}',
  unknownCommandOf: '未知的 {group} 子命令：{sub}',
  subRequired: '{command}：需要子命令（{commands}）',
  subUnknown: '{command}：未知子命令 {sub}（{commands}）',
  unknownOption: '{command}：未知选项 {option}',
  optionNeedsValue: '{command}：选项 {option} 需要一个值',
  unexpectedArgument: '{command}：多余的参数“{argument}”',
  optionRequired: '{command}：缺少 --{option}',
  usernameRequired: '{command}：需要用户名',
  workers: '--workers：须为正整数',
  emptyRole: '{command}：“{text}”中有空的角色名',
  badRole: '{command}：角色“{role}”须为 1–32 个 a-z 0-9 _ - 字符',
  badUsername: '--username：3–32 个 A-Z a-z 0-9 _ 字符',
  badPassword: '--password：8–128 个字符',
  badEmail: '--email：须为有效的邮箱地址',
  usernameTaken: '用户名已被占用',
  emailTaken: '邮箱已被注册',
  roleListRequired: 'user roles U a,b：需要以逗号分隔的角色列表',
  appRequired:
    'app create：--owner、--name 和 --redirect-uri 均为必填（只用 --grant-types client_credentials 时可省略 --redirect-uri）',
  appUpdateIdRequired: 'app update：需要且只能有一个 client_id',
  appIdRequired: '{command}：需要应用 ID',
  adminScopeRequired: 'app grant-admin：至少指定一个权限（{scopes}）',
  adminScopeUnknown: '{command}：未知的权限“{scope}”（可选：{scopes}）',
  trueOrFalse: '--{option}：应为 true 或 false，收到“{value}”',
  oneFile: '{command} FILE：需要且只能给出一个文件',
  noSuchFile: '{file}：文件不存在',
  backupExists: '{file} 已存在：备份从不覆盖已有文件，请换一个文件名',
  backupDamaged: '{file} 已损坏：{detail}',
  notOurDatabase: '{file} 不是账号中心的数据库',
  notOurDatabaseBecause: '{file} 不是账号中心的数据库（{error}）',
  cannotOpen: '无法打开 {path}（DATABASE_URL）：{error}',
  restoreNotEmpty:
    'DATABASE_URL 指向的数据库不是空的（已有 {users} 个用户）：请恢复到新文件或空数据库',
  toolMissing:
    '未安装 {tool}：请安装 PostgreSQL 客户端工具（与服务器相同或更新的大版本）',
  toolFailed: '{tool} 执行失败：{error}',
  dumpUnreadable: '无法读回备份文件 {file}：{error}',
  notOurDump: '{file} 不是账号中心的备份：{error}',
  noUsersTable: '没有 users 表',
  inviteUses: 'invite create：--uses 须为正整数，收到“{value}”',
  banUntil:
    'user ban：--until 须为 3d、12h 或 30m 这样的时长，或晚于现在、带时区的 ISO-8601 时间（2030-01-31T00:00:00Z），收到“{value}”',
  baseUrlNotSet:
    '此命令未设置 BASE_URL，callback_url 按 {url} 生成；请用服务器的 BASE_URL 运行，以得到要在登录方式提供方处填写的地址',
  webhookPrivate:
    'webhook add：{url} 是回环、内网或链路本地地址；只有设置 WEBHOOK_ALLOW_PRIVATE=on 时服务器才会向其发送，服务器和此命令都须设置',
  inviteExpires:
    'invite create：--expires 须为 7d、12h 或 30m 这样的时长，收到“{value}”',
  inviteIdRequired: 'invite remove：需要邀请码 ID',
  roleNameRequired: '{command}：需要角色名',
  trustEmailBoth: '{command}：--trust-email 与 --no-trust-email 不能同时使用',
  providerIdRequired: '{command}：需要登录方式 ID',
  nothingToChange: '{command}：没有要修改的内容',
  webhookIdRequired: 'webhook remove：需要地址 ID',
  webhookIdRequiredFor: '{command}：需要地址 ID',
  transferFormat: '--format：jsonl 或 csv',
  exported: '已导出 {n} 个用户',
  importFileRequired: 'users import FILE：需要且只能给出一个输入文件',
  batchSize: '--batch-size：1 到 2000',
  lineRefused: '第 {line} 行：{reason}（整个文件被拒绝）',
  nothingImported:
    '未导入任何用户：{n} 行的密码哈希超出计算成本上限（docs/operations.md）',
  lineSkipped: '第 {line} 行：{reason}（已跳过）',
  progressImport: '导入',
  progressStats: '{rows} 行  {rate} 行/秒  剩余 {eta}',
};
