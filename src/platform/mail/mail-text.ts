import { DEFAULT_LANGUAGE, type Language } from '../i18n/language.js';
import { MAIL_EN } from './messages/en.js';
import { MAIL_ZH_CN, type MailKey } from './messages/zh-CN.js';

export type { MailKey };

/** The e-mail catalogues, one per language of the pages. */
export const MAIL_CATALOGUES: Readonly<
  Record<Language, Readonly<Record<MailKey, string>>>
> = { 'zh-CN': MAIL_ZH_CN, en: MAIL_EN };

/**
 * The text of `key` in `language` (Chinese when no request chose one), its `{name}`
 * placeholders filled from `params`.
 */
export function mailText(
  language: Language | undefined,
  key: MailKey,
  params: Readonly<Record<string, string | number>> = {},
): string {
  const text = MAIL_CATALOGUES[language ?? DEFAULT_LANGUAGE][key];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}
