/**
 * Readable names for the administration pages: roles and audit actions are stored as codes
 * (searchable, stable in the CSV export); the pages show these words and keep the code beside.
 * Every action the service records has its phrase in the catalogues (messages/zh-CN/audit.ts and messages/en/audit.ts).
 */
import { t, type MessageKey } from './i18n.js';
import { audit } from './messages/zh-CN/audit.js';

const has = (key: string): key is MessageKey => Object.hasOwn(audit, key);

/** 玩家 / 管理员 (Player / Administrator) for the known roles; any other role is shown as it is named. */
export const roleLabel = (role: string): string =>
  has(`role.${role}`) ? t(`role.${role}` as MessageKey) : role;

/** The phrase of an action, or the code itself for one this page does not know yet. */
export const auditActionLabel = (action: string): string =>
  has(`audit.${action}`) ? t(`audit.${action}` as MessageKey) : action;

/** Who acted: an application acting through the admin API (`app:<client_id>`) is named as one; people by their username. */
export const auditActorLabel = (actor: string | null): string => {
  if (actor === null) return '—';
  return actor.startsWith('app:')
    ? t('audit.actorApp', { clientId: actor.slice(4) })
    : actor;
};

/** `key: value` lines of an audit entry's detail; lists joined, nested values as compact JSON. */
export function detailLines(detail: unknown): string[] {
  if (detail === null || typeof detail !== 'object')
    return detail === undefined || detail === null ? [] : [String(detail)];
  return Object.entries(detail as Record<string, unknown>).map(
    ([key, value]) => {
      const text = Array.isArray(value)
        ? value
            .map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)))
            .join(', ')
        : typeof value === 'object' && value !== null
          ? JSON.stringify(value)
          : String(value);
      return `${key}: ${text}`;
    },
  );
}
